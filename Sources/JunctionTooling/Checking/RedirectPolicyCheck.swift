import JunctionCore
import Junction

/// Finds declared redirects that take a request out of the policies of its route: a URL
/// whose route is in groups with a policy is sent, before any policy runs, to a URL whose
/// route is not in those groups, or that is handed to another stack.
///
/// A "kill switch" written as `redirect { from = "myapp://live/:id", to = "https://…" }`
/// once let a minor into a live room at 23:00: the anti-addiction policy of the native
/// room never ran for the H5 one. A redirect returned by an interceptor of the route runs
/// after its group policies and keeps them; a declared one runs before the match.
///
/// Each redirect's `from` pattern is sampled; for each sample the route the URL would
/// have opened is compared with where the redirect ends (following further declared
/// redirects that have no `when`). One finding per redirect, with the first example.
struct RedirectPolicyCheck {
    let redirects: RedirectRules
    let routes: RouteTable
    /// The groups some policy covers, Lua or Swift: only those can be dropped.
    let policyGroups: Set<String>
    /// The decider's limit on redirects per request, which bounds each followed chain.
    let maximumRedirects: Int
    let samples: ParameterSamples
    let lua: LuaSourceText

    func findings() -> [Finding] {
        guard !policyGroups.isEmpty else { return [] }
        var findings: [Finding] = []
        for sample in SampleURLs.ofRedirects(redirects, samples: samples) {
            for rule in sample.rules {
                for match in sample.matches {
                    guard let message = dropped(by: rule, for: match) else { continue }
                    findings.append(
                        Finding(
                            .error, .redirectLeavesPolicies,
                            message + Finding.acceptance(.redirectLeavesPolicies, rule.from),
                            at: lua.location(declaredAt: rule.location, [.string(rule.to), .name("redirect")]),
                            subject: rule.from))
                    break
                }
            }
        }
        return findings
    }

    /// The message when `rule`, taken for `match`, drops policies of the route the URL
    /// would have opened; `nil` when it keeps them or where it ends cannot be known.
    private func dropped(by rule: RedirectRules.Rule, for match: RouteMatch) -> String? {
        guard let source = routes.match(match.uri) else { return nil }
        let route = routes.routes[source.routeIndex]
        let guarded = route.groups.filter(policyGroups.contains)
        guard !guarded.isEmpty else { return nil }

        guard
            let landing = RedirectLanding(
                redirects.target(of: rule, for: match), hops: 1, routes: routes, redirects: redirects,
                maximumRedirects: maximumRedirects)
        else { return nil }
        let through = landing.passed
        let start =
            "redirect from \"\(rule.from)\" to \"\(rule.to)\" takes requests out of the "
            + "group polic\(guarded.count == 1 ? "y" : "ies") \(Self.quoted(guarded)) of route \"\(route.name)\": "
            + "\(match.uri.string) is redirected before any policy runs"
            + (through.isEmpty ? "" : " (through \(through.joined(separator: ", ")))")
        let fix =
            "; to keep \(guarded.count == 1 ? "it" : "them"), redirect from an interceptor of \"\(route.name)\" "
            + "(it runs after the group policies)"
        switch landing.place {
        case .route(let destination):
            let lost = guarded.filter { !destination.groups.contains($0) }
            guard !lost.isEmpty else { return nil }
            return start
                + " to \(landing.url), whose route \"\(destination.name)\" is not in \(Self.quoted(lost))\(fix), "
                + "or add the route \"\(destination.name)\" to \(lost.count == 1 ? "that group" : "those groups")"
        case .dispatcher(let scheme):
            return start + " to \(landing.url), which the \(scheme) dispatcher opens, where no policy runs\(fix)"
        }
    }

    static func quoted(_ groups: [String]) -> String {
        UnreachableRouteCheck.list(groups.map { "\"\($0)\"" })
    }
}
