/// `junction-bench`: runs every benchmark group and prints a table per group or, with
/// `--json`, one line per measurement and nothing else. Progress goes to standard error.
enum BenchmarkCommand {
    /// Every group, in the order they run. Add new groups (`rule.eval.lua`, …) here.
    static let groups: [any BenchmarkGroup] = [
        MatchBenchmark(), RuleBenchmark(), DecideBenchmark(), BundleLoadBenchmark(), BundleVerifyBenchmark(),
        UpdateActivateBenchmark(), LaunchBenchmark(), MemoryBenchmark(), DiffBenchmark(), LogsServeBenchmark(),
        AttackBenchmark(),
    ]

    /// Runs the command.
    /// - Parameter arguments: The arguments, without the program name.
    /// - Returns: The exit status.
    static func run(arguments: [String]) -> Int32 {
        do {
            try runGroups(arguments: arguments)
            return 0
        } catch {
            StandardError.print("junction-bench: \(error.message)")
            return error.exitStatus
        }
    }

    private static func runGroups(arguments: [String]) throws(BenchmarkFailure) {
        guard let options = try BenchmarkOptions.parse(arguments) else {
            print(BenchmarkOptions.usage)
            return
        }
        let harness = options.profileSeconds.map(Harness.profile) ?? (options.quick ? Harness.quick : Harness.standard)
        var checksum = 0
        var reports: [String] = []
        for group in groups {
            let measurements = try group.run(with: harness) { name in
                options.filter.map { filter in filter.split(separator: ",").contains { name.contains($0) } } ?? true
            }
            checksum = measurements.reduce(checksum) { $0 &+ $1.checksum }
            if options.json {
                for measurement in measurements { print(measurement.jsonLine) }
            } else if !measurements.isEmpty {
                reports.append(group.report(measurements))
            }
        }
        print(reports.joined(separator: "\n"), terminator: "")
        // Printing what every result added up to keeps the optimiser from dropping the work.
        StandardError.print("checksum \(checksum)")
    }
}
