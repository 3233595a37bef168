import JunctionCore
import JunctionLua
import Junction

/// Finds redirects that rules return before group policies have run, to a URL whose route
/// is not in those groups, or that is handed to another stack: the policies never run for
/// the request (``RedirectPolicyCheck`` finds the same of declared redirects).
///
/// Where a rule runs decides what its `redirect(...)` drops (docs/rules.md, "How a
/// request is decided"):
/// - an interceptor with `all = true` runs before every group policy of every route;
/// - a `group()` policy runs before the policies of the groups a route lists after its own;
/// - an interceptor of a route (`route =`, `pattern =`, …) runs after the group policies,
///   and a fallback has no route: they drop nothing.
///
/// Where the redirect lands counts as for declared ones (``RedirectLanding``): a route in
/// the same groups runs their policies there. Only targets written as one string literal
/// are seen (``RuleAnalysis/redirectTargets``). One finding per rule and target, naming
/// up to ``routesNamed`` of the routes that lose policies and counting the rest.
struct ReturnedRedirectPolicyCheck {
    let analysis: RuleAnalysis
    let declarations: RuleDeclarations
    let routes: RouteTable
    let redirects: RedirectRules
    /// The groups some policy covers, Lua or Swift: only those can be dropped.
    let policyGroups: Set<String>
    /// The decider's limit on redirects per request, which bounds each followed chain.
    let maximumRedirects: Int
    let lua: LuaSourceText

    /// The most routes, and groups, one finding names.
    static let routesNamed = 3

    /// A route whose policies a redirect drops.
    private struct Loss {
        var route: Route
        var groups: [String]
    }

    /// Who returns the redirect, and so which policies have yet to run.
    private enum Rule {
        /// An interceptor with `all = true`, of this name.
        case global(String)
        /// A policy of this group.
        case group(String)

        /// What a manifest's `allow:` names it by: the interceptor's or the group's name.
        var subject: String {
            switch self {
            case .global(let name), .group(let name): name
            }
        }
    }

    func findings() -> [Finding] {
        guard !policyGroups.isEmpty, !analysis.redirectTargets.isEmpty else { return [] }
        // Each route's groups that a policy covers, in the route's order, without repeats.
        let guarded = routes.routes.map { route in
            var seen = Set<String>()
            return route.groups.filter { policyGroups.contains($0) && seen.insert($0).inserted }
        }
        // The routes a rule can take out of policies: for a global interceptor every guarded
        // route, for a group policy the routes that list its group.
        let everyGuarded = guarded.indices.filter { !guarded[$0].isEmpty }
        var listing: [String: [Int]] = [:]
        for index in everyGuarded {
            for group in guarded[index] { listing[group, default: []].append(index) }
        }
        var rules: [(rule: Rule, function: Int)] = declarations.interceptors.compactMap { interceptor in
            if case .all = interceptor.scope { (.global(interceptor.name), interceptor.function) } else { nil }
        }
        rules += declarations.groups.map { (.group($0.name), $0.function) }
        var findings: [Finding] = []
        for (rule, function) in rules {
            let candidates: [Int]
            switch rule {
            case .global: candidates = everyGuarded
            case .group(let name): candidates = listing[name] ?? []
            }
            var seen = Set<String>()
            for use in analysis.redirectTargets[function] ?? [] where seen.insert(use.name).inserted {
                guard
                    let landing = RedirectLanding(
                        use.name, hops: 1, routes: routes, redirects: redirects, maximumRedirects: maximumRedirects)
                else { continue }
                let kept = Set(landing.groups)
                let losses = candidates.compactMap { index -> Loss? in
                    let lost = Self.yetToRun(after: rule, in: guarded[index]).filter { !kept.contains($0) }
                    return lost.isEmpty ? nil : Loss(route: routes.routes[index], groups: lost)
                }
                guard !losses.isEmpty else { continue }
                findings.append(
                    Finding(
                        .error, .redirectLeavesPolicies,
                        message(rule, use.name, landing, losses)
                            + Finding.acceptance(.redirectLeavesPolicies, rule.subject),
                        at: lua.location(
                            of: [.string(use.name), .name("redirect")], in: use.file, line: use.line, search: .near),
                        subject: rule.subject))
            }
        }
        return FindingLimits.limited(
            findings.sorted { UndefinedGlobalCheck.precedes($0, $1) }, "redirects that leave group policies")
    }

    /// The guarded groups of a route whose policies have not run when `rule` runs.
    private static func yetToRun(after rule: Rule, in groups: [String]) -> [String] {
        switch rule {
        case .global:
            return groups
        case .group(let name):
            guard let position = groups.firstIndex(of: name) else { return [] }
            return Array(groups[(position + 1)...])
        }
    }

    private func message(_ rule: Rule, _ target: String, _ landing: RedirectLanding, _ losses: [Loss]) -> String {
        var lost: [String] = []
        for loss in losses {
            for group in loss.groups where !lost.contains(group) { lost.append(group) }
        }
        // Names from the route table and the rules, cut like every name a finding repeats.
        let groups = Self.named(lost.map(MessageText.quoted), more: "group")
        let names = Self.named(losses.map { MessageText.quoted($0.route.name) }, more: "route")
        let one = losses.count == 1
        let policies = lost.count == 1 ? "policy" : "policies"

        var text: String
        switch rule {
        case .global(let name):
            text =
                "interceptor \(MessageText.quoted(name)) runs before the group policies of every route and returns "
        case .group(let name):
            text =
                "group(\(MessageText.quoted(name))) runs before the policies of the groups a route lists after it and returns "
        }
        text += "redirect(\(MessageText.quoted(target)))"
        if !landing.passed.isEmpty {
            text += ", which declared redirects take on to \(landing.url)"
        }
        var fixes: [String] = []
        let first = losses.prefix(Self.routesNamed).map { MessageText.quoted($0.route.name) }
        let scope =
            one
            ? "an interceptor of the route (route = \(first[0]))"
            : "interceptors of those routes (routes = { \(first.joined(separator: ", "))\(losses.count > first.count ? ", …" : "") })"
        fixes.append("return the redirect from \(scope), which run\(one ? "s" : "") after the group policies")
        switch landing.place {
        case .route(let destination):
            text += ", whose route \(MessageText.quoted(destination.name)) is not in \(groups)"
        case .dispatcher(let scheme):
            text += ", which the \(scheme) dispatcher opens, where no policy runs"
        }
        switch rule {
        case .global:
            text += ": route\(one ? "" : "s") \(names) lose\(one ? "s" : "") the group \(policies) of \(groups)"
        case .group(let name):
            text +=
                ": route\(one ? "" : "s") \(names) list\(one ? "s" : "") \(groups) after \(MessageText.quoted(name)), so "
                + (lost.count == 1 ? "that policy does" : "those policies do") + " not run"
            fixes.append("list \(MessageText.quoted(name)) after \(groups) in \(one ? "its" : "their") groups")
        }
        if case .route(let destination) = landing.place {
            fixes.append(
                "add the route \(MessageText.quoted(destination.name)) to \(lost.count == 1 ? "that group" : "those groups")"
            )
        }
        let fix =
            fixes.count == 1 ? fixes[0] : fixes.dropLast().joined(separator: ", ") + ", or " + fixes[fixes.count - 1]
        return text + " — to keep \(lost.count == 1 ? "it" : "them"), \(fix)"
    }

    /// The first ``routesNamed`` of `items` listed, and how many more `kind`s there are.
    private static func named(_ items: [String], more kind: String) -> String {
        let shown = Array(items.prefix(routesNamed))
        let rest = items.count - shown.count
        return UnreachableRouteCheck.list(rest > 0 ? shown + ["\(rest) more \(kind)\(rest == 1 ? "" : "s")"] : shown)
    }
}
