import Foundation
import Junction
import JunctionAuthoring
import JunctionCore
import JunctionLua

/// `bundle.load`: loading the bundle of `decide.*` from disk the way an app does before
/// its first decision — `RuleBundle.load(directory:)` (read the files, parse the
/// manifest and the 1,000 routes, build the trie, compile the rules into an engine) and
/// `Decider(bundle:)` (compile the redirects, work out every route's interceptors).
/// Reported in milliseconds (`"unit": "ms", "ms_per_op"` in JSON; `ns_per_op` stays).
///
/// Beside it, for where the time goes: `bundle.parse_routes` (`RouteTable.load(text:)`
/// on `routes.yaml`, already read) and `bundle.compile_rules` (`RuleEngine(sources:)` on
/// the Lua files, already read).
///
/// Each sample is one load, so the median is the median load.
struct BundleLoadBenchmark: BenchmarkGroup {
    let name = "bundle"

    func run(with harness: Harness, selecting selected: (String) -> Bool) throws(BenchmarkFailure) -> [Measurement] {
        let names = ["load", "parse_routes", "compile_rules"]
        guard names.contains(where: { selected("\(name).\($0)") }) else { return [] }
        let folders = try PolicyBundleGenerator.write()
        defer { PolicyBundleGenerator.remove(folders) }
        let directory = folders.full

        // Check once that it loads, and read what the partial contenders start from.
        let bundle: RuleBundle
        do {
            bundle = try RuleBundle.load(directory: directory)
            _ = try Decider(bundle: bundle)
        } catch {
            throw BenchmarkFailure("\(name): the generated bundle does not load: \(error)")
        }
        guard bundle.routes.routes.count == PolicyBundleGenerator.routeCount,
            bundle.declarations.redirects.count == PolicyBundleGenerator.redirects.count,
            bundle.declarations.interceptors.count == 2, bundle.declarations.groups.count == 1
        else {
            throw BenchmarkFailure(
                """
                \(name): the bundle loaded \(bundle.routes.routes.count) routes, \(bundle.declarations.redirects.count) redirects, \
                \(bundle.declarations.interceptors.count) interceptors and \(bundle.declarations.groups.count) group policies; \
                expected \(PolicyBundleGenerator.routeCount), \(PolicyBundleGenerator.redirects.count), 2 and 1
                """)
        }
        let routesPath = URL(fileURLWithPath: directory).appendingPathComponent("routes.yaml").path
        let routesText = PolicyBundleGenerator.routesYAML
        let sources = bundle.sources
        StandardError.print(
            "\(name): \(PolicyBundleGenerator.routeCount) routes, \(sources.count) Lua files (\(sources.map(\.text.utf8.count).reduce(0, +)) bytes) at \(directory)"
        )

        var contenders: [Contender] = []
        func add(_ contender: String, _ body: @escaping () -> Int) {
            guard selected("\(name).\(contender)") else { return }
            contenders.append(
                Contender(name: "\(name).\(contender)", n: PolicyBundleGenerator.routeCount, operationsPerIteration: 1)
                { iterations in
                    var sink = 0
                    for _ in 0..<iterations { sink &+= body() }
                    return sink
                })
        }
        add("load") {
            guard let bundle = try? RuleBundle.load(directory: directory), let decider = try? Decider(bundle: bundle)
            else {
                fatalError("bundle.load: the bundle stopped loading")
            }
            return decider.routes.routes.count
        }
        add("parse_routes") {
            guard let table = try? RouteTable.load(text: routesText, file: routesPath) else {
                fatalError("bundle.parse_routes failed")
            }
            return table.routes.count
        }
        add("compile_rules") {
            guard let engine = try? RuleEngine(sources: sources) else { fatalError("bundle.compile_rules failed") }
            return engine.functionNames.count
        }

        StandardError.print("\(name): timing \(contenders.count) contenders, interleaved, one load per sample")
        let measurements = harness.measureInMilliseconds(contenders)
        if let load = measurements.first(where: { $0.name == "\(name).load" }) {
            StandardError.print("  " + target(load))
        }
        return measurements
    }

    private func target(_ load: Measurement) -> String {
        let milliseconds = load.nanosecondsPerOperation / 1e6
        return String(
            format: "target bundle.load ≤ 10 ms: %@ (%.3f ms)", milliseconds <= 10 ? "met" : "MISSED", milliseconds)
    }

    func report(_ measurements: [Measurement]) -> String {
        var lines = [
            "\(name): milliseconds per load of the decide bundle (\(PolicyBundleGenerator.routeCount) routes), median of \(measurements.first?.samples ?? 0) loads"
        ]
        for measurement in measurements {
            lines.append(
                "  " + measurement.name.padding(toLength: 24, withPad: " ", startingAt: 0)
                    + String(format: "%10.3f ms", measurement.nanosecondsPerOperation / 1e6))
        }
        if let load = measurements.first(where: { $0.name == "\(name).load" }) {
            lines.append("")
            lines.append("  " + target(load))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
