import JunctionCore
import JunctionLua
import Junction

/// The redirects rules return with a literal target, as edges between routes: from each
/// route a rule runs for to the route where its target lands (``RedirectLanding``, after
/// the declared redirects that take it further). What ``RuleRedirectCycleCheck`` and
/// ``UnexportedRedirectCheck`` follow.
///
/// A rule runs for the routes its declaration names: an interceptor's `route`/`routes`,
/// every route for `all = true`, the routes listing a `group()` policy's group. An
/// interceptor with a `pattern` and a fallback (which runs for no route) are left out:
/// which routes they run for is not read here.
struct RuleRedirects {
    /// One redirect a rule can return.
    struct Edge: Hashable {
        /// The declared function's index in ``RuleDeclarations``.
        var function: Int
        /// `interceptor "rollout"` or `group("login")`, for messages.
        var rule: String
        /// The target as written.
        var target: String
        /// The file and line of the `redirect(...)` call.
        var use: RuleAnalysis.Use
        /// The route the target lands on.
        var landing: Int
        /// The URL it lands on when declared redirects took the target further.
        var further: String?
    }

    /// The redirects of rules that run for every route.
    private(set) var everyRoute: [Edge] = []
    /// The redirects of rules that run for the routes of a group, by group.
    private(set) var byGroup: [String: [Edge]] = [:]
    /// The redirects of rules that run for named routes, by route index.
    private(set) var byRoute: [Int: [Edge]] = [:]
    /// Every edge, once, in declaration order, with the routes it runs for (`nil`: every route).
    private(set) var edges: [(edge: Edge, from: [Int]?)] = []

    let routes: RouteTable

    init(
        analysis: RuleAnalysis, declarations: RuleDeclarations, routes: RouteTable, redirects: RedirectRules,
        maximumRedirects: Int
    ) {
        self.routes = routes
        func landings(_ function: Int, _ rule: String) -> [Edge] {
            var seen = Set<String>()
            return (analysis.redirectTargets[function] ?? []).compactMap { use in
                guard seen.insert(use.name).inserted,
                    let landing = RedirectLanding(
                        use.name, hops: 1, routes: routes, redirects: redirects, maximumRedirects: maximumRedirects),
                    case .route(let route) = landing.place, let index = routes.index(ofRouteNamed: route.name)
                else { return nil }
                return Edge(
                    function: function, rule: rule, target: use.name, use: use, landing: index,
                    further: landing.passed.isEmpty ? nil : landing.url)
            }
        }
        for interceptor in declarations.interceptors {
            let found = landings(interceptor.function, "interceptor \(MessageText.quoted(interceptor.name))")
            guard !found.isEmpty else { continue }
            switch interceptor.scope {
            case .all:
                everyRoute += found
                edges += found.map { ($0, nil) }
            case .route(let name):
                guard let index = routes.index(ofRouteNamed: name) else { continue }
                byRoute[index, default: []] += found
                edges += found.map { ($0, [index]) }
            case .routes(let names):
                let indices = names.compactMap { routes.index(ofRouteNamed: $0) }
                for index in indices { byRoute[index, default: []] += found }
                edges += found.map { ($0, indices) }
            case .pattern, .patterns:
                continue
            }
        }
        for policy in declarations.groups {
            let found = landings(policy.function, "group(\(MessageText.quoted(policy.name)))")
            guard !found.isEmpty else { continue }
            byGroup[policy.name, default: []] += found
            let listing = routes.routes.indices.filter { routes.routes[$0].groups.contains(policy.name) }
            edges += found.map { ($0, listing) }
        }
    }

    /// The redirects rules can return for a request of route `index`.
    func edges(from index: Int) -> [Edge] {
        var found = everyRoute + (byRoute[index] ?? [])
        var seenGroups = Set<String>()
        for group in routes.routes[index].groups where seenGroups.insert(group).inserted {
            found += byGroup[group] ?? []
        }
        return found
    }
}
