import JunctionCore
import JunctionLua

/// Finds route interceptors whose pattern matches no route's URLs.
///
/// A target that names a route or equals a route's pattern always applies. Any other
/// is a pattern matched per URL: it matches something when it matches a sample URL of
/// some route, or some route matches one of its own sample URLs. It is reported only
/// when both directions were sampled completely and neither found a URL.
struct InterceptorPatternCheck {
    let routes: RouteTable
    let declarations: RuleDeclarations
    /// The decider's table of interceptor patterns (``InterceptorPlan/patternTable``).
    let patternTable: RouteTable?
    let samples: ParameterSamples
    let lua: LuaSourceText

    func findings() -> [Finding] {
        guard let patternTable else { return [] }
        let routeSamples = routes.routes.indices.map { SampleURLs(ofRouteAt: $0, in: routes, samples: samples) }
        let everyRouteSampled = routeSamples.allSatisfy(\.isComplete)
        var findings: [Finding] = []
        for interceptor in declarations.interceptors {
            let targets: [String]
            switch interceptor.scope {
            case .route(let target): targets = [target]
            case .routes(let list): targets = list
            case .all: continue
            }
            for target in targets
            where routes.route(named: target) == nil && !routes.routes.contains(where: { $0.pattern == target }) {
                guard let index = patternTable.routes.firstIndex(where: { $0.pattern == target }) else { continue }
                let matchesARoute = routeSamples.contains { sampled in
                    sampled.urls.contains { uri in patternTable.matches(uri).contains { $0.routeIndex == index } }
                }
                let own = SampleURLs(ofRouteAt: index, in: patternTable, samples: samples)
                let aRouteMatches = own.urls.contains { !routes.matches($0).isEmpty }
                guard !matchesARoute, !aRouteMatches, everyRouteSampled, own.isComplete else { continue }
                findings.append(
                    Finding(
                        .warning, .interceptorMatchesNothing,
                        "interceptor \"\(interceptor.name)\" applies to no route: \"\(target)\" is neither a route's name nor "
                            + "its pattern, and as a pattern it matches no route's URLs; name a route, or fix the pattern",
                        at: lua.location(declaredAt: interceptor.location, [.string(target), .name("interceptor")])))
            }
        }
        return findings
    }
}
