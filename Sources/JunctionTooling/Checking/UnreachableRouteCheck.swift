import JunctionCore

/// Finds routes that higher-precedence routes take every URL from.
///
/// Each route is sampled (``SampleURLs``, with values no constraint wants, so that an
/// unconstrained parameter has its best chance); when the table's best match for every
/// sample is another route, the route is reported with those routes. A route with a
/// parameter no sample value satisfies is skipped, never reported.
struct UnreachableRouteCheck {
    let routes: RouteTable

    func findings() -> [Finding] {
        var findings: [Finding] = []
        for (index, route) in routes.routes.enumerated() {
            let sampled = SampleURLs(ofRouteAt: index, in: routes, samples: .distinctive)
            guard sampled.isComplete, let example = sampled.urls.first else { continue }
            var winners: [Route] = []
            var reached = false
            for uri in sampled.urls {
                guard let best = routes.match(uri) else { continue }
                if best.routeIndex == index {
                    reached = true
                    break
                }
                if !winners.contains(best.route) { winners.append(best.route) }
            }
            guard !reached, !winners.isEmpty else { continue }
            let names = Self.list(winners.map { "\"\($0.name)\" (\($0.pattern))" })
            findings.append(
                Finding(
                    .warning, .unreachableRoute,
                    "route \"\(route.name)\" (\(route.pattern)) is never reached: \(names) \(winners.count == 1 ? "takes" : "take") "
                        + "precedence for every URL it matches, e.g. \(example); raise its priority, make its pattern "
                        + "more specific or remove it",
                    at: route.location))
        }
        return findings
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}
