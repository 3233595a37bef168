import Foundation
import JunctionCore
import RoutingKit

/// `match.*`: the same URL mix routed by Junction (`match.junction`), routing-kit's
/// `TrieRouter` (`match.routingkit`) and a linear scan (`match.linear`) at each table
/// size. Junction gets the full URL string and parses, decodes and matches it; the
/// others get the path, already extracted, and split it themselves.
struct MatchBenchmark: BenchmarkGroup {
    let name = "match"
    /// Table sizes, in routes.
    var sizes = [100, 1_000, 10_000]

    private static let contenders = ["junction", "routingkit", "linear"]

    func run(with harness: Harness, selecting selected: (String) -> Bool) throws(BenchmarkFailure) -> [Measurement] {
        // Every matcher at every size goes into one interleaved measurement, so the
        // ratios across matchers and sizes see the same machine.
        var contenders: [Contender] = []
        for n in sizes where Self.contenders.contains(where: { selected("\(name).\($0)") }) {
            StandardError.print("\(name): building \(n) routes")
            let specs = RouteSetGenerator.routes(count: n)
            let samples = RouteSetGenerator.urls(routeCount: n)
            let urls = samples.map(\.url)
            let paths = samples.map(\.path)

            let table: RouteTable
            do {
                table = try RouteTable(routes: specs.map { Route(name: $0.name, pattern: $0.pattern) })
            } catch {
                throw BenchmarkFailure("\(name): Junction rejected the generated \(n) routes: \(error)")
            }
            let router = TrieRouter(String.self)
            for spec in specs { router.register(spec.name, at: Self.pathComponents(spec)) }
            let linear = LinearRouter(routes: specs)
            // One `Parameters` made up front and copied per request, so routing-kit does not
            // pay for creating a `Logger` on every match.
            let emptyParameters = Parameters()

            try verify(
                n: n, samples: samples, table: table, router: router, emptyParameters: emptyParameters, linear: linear)

            if selected("\(name).junction") {
                contenders.append(
                    Contender(name: "\(name).junction", n: n, operationsPerIteration: urls.count) { iterations in
                        Self.routeWithJunction(urls, table, iterations: iterations)
                    })
            }
            if selected("\(name).routingkit") {
                contenders.append(
                    Contender(name: "\(name).routingkit", n: n, operationsPerIteration: paths.count) { iterations in
                        Self.routeWithRoutingKit(paths, router, emptyParameters, iterations: iterations)
                    })
            }
            if selected("\(name).linear") {
                contenders.append(
                    Contender(name: "\(name).linear", n: n, operationsPerIteration: paths.count) { iterations in
                        Self.routeWithLinearScan(paths, linear, iterations: iterations)
                    })
            }
        }
        StandardError.print("\(name): timing \(contenders.count) contenders, interleaved")
        let measurements = harness.measure(contenders)
        for measurement in measurements {
            StandardError.print(
                String(
                    format: "  %@ n=%d: %.1f ns/op (%.1f–%.1f, %d samples of %d ops)",
                    measurement.name, measurement.n, measurement.nanosecondsPerOperation, measurement.fastest,
                    measurement.slowest, measurement.samples, measurement.operationsPerSample))
        }
        return measurements
    }

    func report(_ measurements: [Measurement]) -> String {
        func measurement(_ contender: String, _ n: Int) -> Measurement? {
            measurements.first { $0.name == "\(name).\(contender)" && $0.n == n }
        }
        func ratio(_ a: Measurement?, _ b: Measurement?) -> Double? {
            guard let a, let b else { return nil }
            return a.pairedRatio(to: b)
        }
        func cell(_ value: Double?, width: Int, suffix: String = "", decimals: Int = 1) -> String {
            let text = value.map { String(format: "%.\(decimals)f", $0) + suffix } ?? "—"
            return String(repeating: " ", count: max(0, width - text.count)) + text
        }
        let smallest = sizes[0]
        let largest = sizes[sizes.count - 1]
        let columns = [
            ("n", 7), ("junction", 10), ("routingkit", 11), ("linear", 10),
            ("junction/routingkit", 20), ("junction/junction(\(smallest))", 24),
        ]
        var lines = [
            "\(name): nanoseconds per URL, median of \(measurements.first?.samples ?? 0) samples (lower is better);",
            "ratios are medians of per-round ratios (samples interleaved, so a machine that changes speed mid-run skews no ratio)",
            columns.map { String(repeating: " ", count: max(0, $0.1 - $0.0.count)) + $0.0 }.joined(separator: " "),
        ]
        for n in sizes {
            let junction = measurement("junction", n)
            lines.append(
                [
                    String(repeating: " ", count: max(0, 7 - "\(n)".count)) + "\(n)",
                    cell(junction?.nanosecondsPerOperation, width: 10),
                    cell(measurement("routingkit", n)?.nanosecondsPerOperation, width: 11),
                    cell(measurement("linear", n)?.nanosecondsPerOperation, width: 10),
                    cell(ratio(junction, measurement("routingkit", n)), width: 20, suffix: "×", decimals: 2),
                    cell(ratio(junction, measurement("junction", smallest)), width: 24, suffix: "×", decimals: 2),
                ].joined(separator: " "))
        }
        let againstRoutingKit = sizes.map { ratio(measurement("junction", $0), measurement("routingkit", $0)) }
        if againstRoutingKit.allSatisfy({ $0 != nil }),
            let growth = ratio(measurement("junction", largest), measurement("junction", smallest))
        {
            let worst = againstRoutingKit.compactMap { $0 }.max() ?? 0
            lines.append("")
            lines.append(
                String(
                    format: "target junction ≤ 1/3 × routingkit at every n: %@ (worst %.3f×)",
                    worst <= 1.0 / 3.0 ? "met" : "MISSED", worst))
            lines.append(
                String(
                    format: "target junction(%d) ≤ 1.3 × junction(%d): %@ (%.3f×)", largest, smallest,
                    growth <= 1.3 ? "met" : "MISSED", growth))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Junction's whole job: parse, decode and match the URL, then read the captures.
    private static func routeWithJunction(_ urls: [String], _ table: RouteTable, iterations: Int) -> Int {
        var sink = 0
        for _ in 0..<iterations {
            for url in urls {
                guard let match = try? table.match(url) else { continue }
                sink &+= match.route.name.utf8.count &+ (match.parameters["id"]?.utf8.count ?? 0)
            }
        }
        return sink
    }

    /// routing-kit as Vapor uses it: split the path, route the components.
    private static func routeWithRoutingKit(
        _ paths: [String], _ router: TrieRouter<String>, _ emptyParameters: Parameters, iterations: Int
    ) -> Int {
        var sink = 0
        for _ in 0..<iterations {
            for path in paths {
                let components = path.split(separator: "/").map(String.init)
                var parameters = emptyParameters
                guard let route = router.route(path: components, parameters: &parameters) else { continue }
                sink &+= route.utf8.count &+ (parameters.get("id")?.utf8.count ?? 0)
            }
        }
        return sink
    }

    private static func routeWithLinearScan(_ paths: [String], _ linear: LinearRouter, iterations: Int) -> Int {
        var sink = 0
        for _ in 0..<iterations {
            for path in paths {
                guard let match = linear.route(path: path) else { continue }
                sink &+= match.name.utf8.count &+ (match.parameters["id"]?.utf8.count ?? 0)
            }
        }
        return sink
    }

    /// Checks that every contender routes every URL of the mix to the expected route with
    /// the same captures; a benchmark of matchers doing different work means nothing.
    private func verify(
        n: Int, samples: [SampleURL], table: RouteTable, router: TrieRouter<String>,
        emptyParameters: Parameters, linear: LinearRouter
    ) throws(BenchmarkFailure) {
        var problems: [String] = []
        for sample in samples {
            var outcomes: [(contender: String, outcome: RoutedOutcome?)] = []
            do {
                let match = try table.match(sample.url)
                outcomes.append(
                    (
                        "junction",
                        match.map {
                            RoutedOutcome(route: $0.route.name, id: $0.parameters["id"], rest: $0.parameters["**"])
                        }
                    ))
            } catch {
                problems.append("\(name).junction could not parse \(sample.url): \(error)")
                continue
            }
            var parameters = emptyParameters
            let route = router.route(path: sample.path.split(separator: "/").map(String.init), parameters: &parameters)
            let catchAll = parameters.getCatchall()
            outcomes.append(
                (
                    "routingkit",
                    route.map {
                        RoutedOutcome(
                            route: $0, id: parameters.get("id"),
                            rest: catchAll.isEmpty ? nil : catchAll.joined(separator: "/"))
                    }
                ))
            let hit = linear.route(path: sample.path)
            outcomes.append(
                (
                    "linear",
                    hit.map {
                        RoutedOutcome(route: $0.name, id: $0.parameters["id"], rest: $0.parameters["**"])
                    }
                ))
            for (contender, outcome) in outcomes where outcome != sample.expected {
                problems.append(
                    "\(name).\(contender), n=\(n), \(sample.url): expected \(sample.expected?.description ?? "no match"), got \(outcome?.description ?? "no match")"
                )
            }
        }
        guard problems.isEmpty else {
            throw BenchmarkFailure(
                """
                \(name): the matchers disagree, so timing them would compare different work:
                  \(problems.joined(separator: "\n  "))
                Fix the route set or URL mix in RouteSetGenerator.swift (or the matcher at fault).
                """)
        }
        StandardError.print(
            "\(name): all \(Self.contenders.count) matchers agree on \(samples.count) URLs (\(samples.filter { $0.expected == nil }.count) misses)"
        )
    }

    private static func pathComponents(_ spec: RouteSpec) -> [PathComponent] {
        spec.components.map { text in
            switch text {
            case "*": return .anything
            case "**": return .catchall
            case _ where text.hasPrefix(":"): return .parameter(String(text.dropFirst()))
            default: return .constant(text)
            }
        }
    }
}
