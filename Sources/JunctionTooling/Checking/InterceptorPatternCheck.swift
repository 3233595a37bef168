import JunctionCore
import JunctionLua

/// Finds interceptor patterns (`pattern =`, `patterns =`) that match no route's URLs,
/// and patterns that cover only part of a route's URLs.
///
/// A pattern matches something when it matches a sample URL of some route, or some
/// route matches one of its own sample URLs; it is reported as matching nothing only
/// when both directions were sampled completely and neither found a URL.
///
/// It covers part of a route when, among the route's sample URLs that the route decides
/// (no higher-precedence route takes them), it matches some and not others: that is
/// proven by the two URLs the message shows, whatever the sampling left out. Guarding
/// `myapp://wallet` while the route is `myapp://wallet/**` leaves `myapp://wallet/pay`
/// unguarded, which is rarely what was meant.
struct InterceptorPatternCheck {
    let routes: RouteTable
    let declarations: RuleDeclarations
    /// The decider's table of interceptor patterns (``InterceptorPlan/patternTable``).
    let patternTable: RouteTable?
    let samples: ParameterSamples
    let lua: LuaSourceText

    /// The most routes one finding of partial coverage names.
    static let routesNamed = 3

    func findings() -> [Finding] {
        guard let patternTable else { return [] }
        let routeSamples = routes.routes.indices.map { SampleURLs(ofRouteAt: $0, in: routes, samples: samples) }
        let everyRouteSampled = routeSamples.allSatisfy(\.isComplete)
        // Each route's sample URLs that the route itself decides.
        let decided = routeSamples.enumerated().map { index, sampled in
            sampled.urls.filter { routes.matches($0).first?.routeIndex == index }
        }
        var findings: [Finding] = []
        for interceptor in declarations.interceptors {
            let patterns: [String]
            switch interceptor.scope {
            case .pattern(let pattern): patterns = [pattern]
            case .patterns(let list): patterns = list
            case .route, .routes, .all: continue
            }
            for pattern in patterns {
                guard let index = patternTable.routes.firstIndex(where: { $0.pattern == pattern }) else { continue }
                let at = lua.location(declaredAt: interceptor.location, [.string(pattern), .name("interceptor")])
                func covers(_ uri: URI) -> Bool { patternTable.matches(uri).contains { $0.routeIndex == index } }

                var partial: [(route: Route, covered: URI, missed: URI)] = []
                for (routeIndex, urls) in decided.enumerated() {
                    guard let covered = urls.first(where: covers), let missed = urls.first(where: { !covers($0) })
                    else { continue }
                    partial.append((routes.routes[routeIndex], covered, missed))
                }
                if !partial.isEmpty {
                    findings.append(
                        Finding(
                            .warning, .interceptorPatternPartial,
                            partialMessage(interceptor.name, pattern, partial), at: at))
                    continue
                }
                let matchesARoute = routeSamples.contains { $0.urls.contains(where: covers) }
                let own = SampleURLs(ofRouteAt: index, in: patternTable, samples: samples)
                let aRouteMatches = own.urls.contains { !routes.matches($0).isEmpty }
                guard !matchesARoute, !aRouteMatches, everyRouteSampled, own.isComplete else { continue }
                findings.append(
                    Finding(
                        .warning, .interceptorMatchesNothing,
                        "interceptor \"\(interceptor.name)\" applies to no route: pattern \"\(pattern)\" matches no "
                            + "route's URLs; fix the pattern, or name the routes it is for with route = or routes =",
                        at: at))
            }
        }
        return findings
    }

    private func partialMessage(
        _ interceptor: String, _ pattern: String, _ partial: [(route: Route, covered: URI, missed: URI)]
    ) -> String {
        let first = partial[0]
        var message =
            "interceptor \"\(interceptor)\": pattern \"\(pattern)\" covers only some URLs of route "
            + "\"\(first.route.name)\" (\(first.route.pattern)): it applies to \(first.covered.string) but not to "
            + "\(first.missed.string)"
        let others = partial.dropFirst().prefix(Self.routesNamed - 1).map { "\"\($0.route.name)\"" }
        let unnamed = partial.count - 1 - others.count
        if !others.isEmpty {
            message +=
                ", and likewise of \(UnreachableRouteCheck.list(others + (unnamed > 0 ? ["\(unnamed) more"] : [])))"
        }
        let names = partial.prefix(Self.routesNamed).map(\.route.name)
        let fix =
            names.count == 1
            ? "route = \"\(names[0])\"" : "routes = { \(names.map { "\"\($0)\"" }.joined(separator: ", ")) }"
        return message + "; to guard the whole route write \(fix), or widen the pattern"
    }
}
