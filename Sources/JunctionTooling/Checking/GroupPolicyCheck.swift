import JunctionCore
import JunctionLua

/// Finds groups that routes list but no policy covers, and `group()` policies for groups
/// no route lists.
///
/// A group is covered by a `group()` policy of the bundle or by a Swift interceptor given
/// to the decider; the app's own Swift interceptors cannot be known to a check of the
/// bundle alone, and the message says so.
///
/// A group without a policy whose name is near one a policy covers (``NearestName``:
/// `logni` and `login`, `anti-addiction` and `anti_addiction`) is most likely a misspelt
/// name that leaves its routes open: an error, `group-near-policy`, which a manifest's
/// `allow:` can accept for a group that is meant (`vip` beside `vips`). A policy without
/// a group names the near group without a policy.
struct GroupPolicyCheck {
    let routes: RouteTable
    let declarations: RuleDeclarations
    /// The groups some policy covers, Lua or Swift.
    let coveredGroups: Set<String>
    let lua: LuaSourceText

    func findings() -> [Finding] {
        var findings: [Finding] = []
        var usedGroups: [String] = []
        var routesByGroup: [String: [Route]] = [:]
        for route in routes.routes {
            for group in route.groups {
                if routesByGroup[group] == nil { usedGroups.append(group) }
                routesByGroup[group, default: []].append(route)
            }
        }
        let uncovered = usedGroups.filter { !coveredGroups.contains($0) }
        // Policies in the order the bundle declares them, then the Swift ones by name.
        let declared = declarations.groups.map(\.name)
        let policies = declared + coveredGroups.subtracting(declared).sorted()
        for group in uncovered {
            let members = routesByGroup[group] ?? []
            let shown =
                members.prefix(3).map { "\"\($0.name)\"" } + (members.count > 3 ? ["\(members.count - 3) more"] : [])
            let routesText = "route\(members.count == 1 ? "" : "s") \(UnreachableRouteCheck.list(shown))"
            if let near = NearestName.nearest(to: group, among: policies) {
                let message =
                    "group \"\(group)\" of \(routesText) has no policy, but the near name \"\(near)\" has one: "
                    + "\(members.count == 1 ? "the route is" : "those routes are") open where routes of \"\(near)\" are "
                    + "guarded — if \"\(near)\" was meant, fix the spelling in the route table"
                    + Finding.acceptance(.groupNearPolicy, group)
                findings.append(
                    Finding(.error, .groupNearPolicy, message, at: members.first?.location, subject: group))
                continue
            }
            let message =
                "group \"\(group)\" of \(routesText) "
                + "has no group() policy in the bundle, so the bundle guards nothing there "
                + "(a Swift interceptor the app registers for the group cannot be seen by this check)"
                + " — add group(\"\(group)\", function(req, ctx) ... end) to a file of the bundle, or remove the "
                + "group from the route\(members.count == 1 ? "" : "s")"
            findings.append(Finding(.warning, .groupWithoutPolicy, message, at: members.first?.location))
        }
        for policy in declarations.groups where routesByGroup[policy.name] == nil {
            var message =
                "group(\"\(policy.name)\") is a policy for a group no route lists; "
                + "add \"\(policy.name)\" to the groups of its routes in the route table, or remove the policy"
            message += NearestName.suggestion(for: policy.name, among: uncovered)
            findings.append(
                Finding(
                    .warning, .unusedGroupPolicy, message,
                    at: lua.location(declaredAt: policy.location, [.string(policy.name), .name("group")])))
        }
        return findings
    }
}
