/// A family of benchmarks that compare contenders on the same work, e.g. `match`
/// (Junction against routing-kit and a linear scan). Each group lives in its own file.
///
/// A group must check, before timing anything, that its contenders produce the same
/// results, and throw if they do not: a comparison of different work is meaningless.
protocol BenchmarkGroup: Sendable {
    /// The prefix of its measurement names (`match` for `match.junction`).
    var name: String { get }

    /// Builds the inputs, checks that the contenders agree, and times them.
    /// - Parameters:
    ///   - harness: How to time.
    ///   - selected: Whether to time the measurement of a name (`match.junction`).
    /// - Returns: One measurement per selected contender and size.
    /// - Throws: `BenchmarkFailure` when inputs do not build or contenders disagree.
    func run(with harness: Harness, selecting selected: (String) -> Bool) throws(BenchmarkFailure) -> [Measurement]

    /// A readable table of this group's measurements.
    /// - Parameter measurements: What `run(with:)` returned.
    /// - Returns: The table, ending in a newline.
    func report(_ measurements: [Measurement]) -> String
}
