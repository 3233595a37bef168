import JunctionCore
import JunctionLua
import Junction

/// Finds redirects rules return that can lead back to where they started: interceptor
/// `a` sends route `old` to `myapp://new`, and interceptor `b` sends route `new` back to
/// `myapp://old` — or one rule's target that declared redirects take back to its own
/// route. When every rule on the way redirects, the request is refused as a redirect
/// loop. A warning (`redirect-cycle`): whether a rule redirects depends on its code.
///
/// It follows ``RuleRedirects`` (literal targets only) and, inside each hop, the declared
/// redirects (``RedirectCycleCheck`` finds cycles of declared redirects alone). A rule
/// whose target is its own route directly is left out: it must test something that
/// changes with the redirect, and usually does.
struct RuleRedirectCycleCheck {
    let graph: RuleRedirects
    let lua: LuaSourceText

    func findings() -> [Finding] {
        var reported: Set<Set<String>> = []
        var findings: [Finding] = []
        for (edge, from) in graph.edges {
            let starts = from.map(Set.init) ?? Set(graph.routes.routes.indices)
            guard let path = path(from: edge.landing, to: starts, first: edge) else { continue }
            let cycle = [edge] + path
            let key = Set(cycle.map { "\($0.function) \($0.target)" })
            guard reported.insert(key).inserted else { continue }
            findings.append(finding(cycle))
        }
        return FindingLimits.limited(
            findings.sorted { UndefinedGlobalCheck.precedes($0, $1) }, "redirect cycles through rules")
    }

    /// The shortest chain of rule redirects from route `start` to one of `targets`
    /// (empty when `start` is one of them and the first hop went through declared
    /// redirects); `nil` when there is none, or when the only cycle is `first`
    /// redirecting to its own route.
    private func path(from start: Int, to targets: Set<Int>, first: RuleRedirects.Edge) -> [RuleRedirects.Edge]? {
        if targets.contains(start) {
            let direct = (try? URI(first.target)).flatMap { graph.routes.match($0) }?.routeIndex == start
            return direct ? nil : []
        }
        var previous: [Int: (route: Int, edge: RuleRedirects.Edge)] = [:]
        var queue = [start]
        var head = 0
        var seen: Set<Int> = [start]
        while head < queue.count {
            let route = queue[head]
            head += 1
            for edge in graph.edges(from: route) where seen.insert(edge.landing).inserted {
                previous[edge.landing] = (route, edge)
                if targets.contains(edge.landing) {
                    var path: [RuleRedirects.Edge] = []
                    var at = edge.landing
                    while at != start, let step = previous[at] {
                        path.append(step.edge)
                        at = step.route
                    }
                    return path.reversed()
                }
                queue.append(edge.landing)
            }
        }
        return nil
    }

    private func finding(_ cycle: [RuleRedirects.Edge]) -> Finding {
        let routes = graph.routes.routes
        let hops = cycle.map { edge in
            "\(edge.rule) (\(edge.use.file):\(edge.use.line)) redirects to \(edge.target) "
                + "(\(edge.further.map { "which declared redirects take on to \($0), " } ?? "")route "
                + "\(MessageText.quoted(routes[edge.landing].name)))"
        }
        let one = cycle.count == 1
        let message =
            "possible redirect cycle through rules: " + hops.joined(separator: ", then ")
            + (one
                ? ", which it runs for again: when it redirects there too, the request is refused as a redirect loop "
                    + "— make it test what the redirect changes (req.route.name, a query parameter), or change the "
                    + "target"
                : ", which the first runs for again: when each of them redirects, the request is refused as a "
                    + "redirect loop — make one of them test what the redirect changes (req.route.name, a query "
                    + "parameter), or change a target")
        let first = cycle[0].use
        return Finding(
            .warning, .redirectCycle, message,
            at: lua.location(
                of: [.string(first.name), .name("redirect")], in: first.file, line: first.line, search: .near))
    }
}
