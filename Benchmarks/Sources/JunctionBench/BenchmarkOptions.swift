/// The command line: `junction-bench [--json] [--quick]`.
struct BenchmarkOptions {
    /// Print one JSON object per measurement and nothing else on standard output.
    var json = false
    /// Few, short samples: a smoke test, not a measurement.
    var quick = false
    /// Only measurements whose name contains this text (`match.junction`), e.g. to profile one.
    var filter: String?
    /// One sample of about this many seconds per measurement, for a profiler (`perf record`)
    /// to see the measured work rather than the set-up.
    var profileSeconds: Int?

    static let usage = """
        usage: junction-bench [--json] [--quick] [--filter TEXT] [--profile SECONDS]
          --json           one line per measurement: {"name": "match.junction", "n": 100, "ns_per_op": 123.4}
          --quick          few short samples, for smoke tests (figures are rough)
          --filter TEXT    only measurements whose name contains TEXT, or one of TEXT,TEXT (e.g. match.junction)
          --profile SECONDS  one sample of SECONDS per measurement, for perf record (figures are one sample)
        """

    /// Reads the arguments after the program name.
    /// - Parameter arguments: The arguments, without the program name.
    /// - Returns: The options, or `nil` when help was asked for.
    /// - Throws: `BenchmarkFailure` (exit status 64) for an unknown or incomplete argument.
    static func parse(_ arguments: [String]) throws(BenchmarkFailure) -> BenchmarkOptions? {
        var options = BenchmarkOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--json": options.json = true
            case "--quick": options.quick = true
            case "--filter":
                guard let text = remaining.popFirst() else {
                    throw BenchmarkFailure(
                        "--filter needs a name, e.g. --filter match.junction\n\(usage)", exitStatus: 64)
                }
                options.filter = text
            case "--profile":
                guard let text = remaining.popFirst(), let seconds = Int(text), (1...600).contains(seconds) else {
                    throw BenchmarkFailure("--profile needs a number of seconds, 1 to 600\n\(usage)", exitStatus: 64)
                }
                options.profileSeconds = seconds
            case "-h", "--help": return nil
            default: throw BenchmarkFailure("unknown argument \"\(argument)\"\n\(usage)", exitStatus: 64)
            }
        }
        return options
    }
}
