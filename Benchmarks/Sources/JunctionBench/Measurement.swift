import Foundation

/// The timing of one benchmark at one size: the median of its samples.
struct Measurement {
    /// `group.contender`, e.g. `match.junction`.
    var name: String
    /// The size the benchmark ran at (for `match`, the number of routes).
    var n: Int
    /// Median nanoseconds per operation.
    var nanosecondsPerOperation: Double
    /// The fastest sample, nanoseconds per operation.
    var fastest: Double
    /// The slowest sample, nanoseconds per operation.
    var slowest: Double
    /// Every sample, nanoseconds per operation, in the order taken (one per round).
    var sampleNanoseconds: [Double]
    /// How many samples were taken.
    var samples: Int { sampleNanoseconds.count }
    /// Operations timed in each sample.
    var operationsPerSample: Int
    /// What the benchmark's results added up to; printed so the work cannot be optimised away.
    var checksum: Int
    /// Whether the JSON line also gives the time in milliseconds (`bundle.load`), for
    /// figures too large to read in nanoseconds.
    var reportsMilliseconds = false
    /// For a memory figure (`memory.policy`): the bytes, and the parts they break down
    /// into; the JSON line then gives these instead of a time.
    var bytes: (total: Int, parts: [(String, Int)])?

    /// The median over rounds of this measurement's sample divided by `other`'s sample
    /// of the same round. Samples of one round are taken moments apart, so this ratio
    /// holds even when the machine changes speed during the run; a ratio of medians
    /// would not.
    /// - Parameter other: A measurement from the same interleaved run.
    /// - Returns: The paired ratio.
    func pairedRatio(to other: Measurement) -> Double {
        let ratios = zip(sampleNanoseconds, other.sampleNanoseconds).map { $0 / $1 }.sorted()
        return ratios.isEmpty ? .nan : ratios[ratios.count / 2]
    }

    /// `{"name": "match.junction", "n": 100, "ns_per_op": 123.4}`; with
    /// ``reportsMilliseconds``, `"unit": "ms", "ms_per_op": 4.321` follow; a memory figure
    /// is `{"name": "memory.policy", "n": 1000, "unit": "bytes", "bytes": 123456,
    /// "breakdown": {"route_table": 45678, …}}`.
    var jsonLine: String {
        if let (total, parts) = bytes {
            let breakdown = parts.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ")
            return
                "{\"name\": \"\(name)\", \"n\": \(n), \"unit\": \"bytes\", \"bytes\": \(total), \"breakdown\": {\(breakdown)}}"
        }
        let milliseconds =
            reportsMilliseconds
            ? ", \"unit\": \"ms\", \"ms_per_op\": \(String(format: "%.3f", nanosecondsPerOperation / 1e6))" : ""
        return
            "{\"name\": \"\(name)\", \"n\": \(n), \"ns_per_op\": \(String(format: "%.1f", nanosecondsPerOperation))\(milliseconds)}"
    }
}
