import JunctionCore
import Junction

/// Finds declared redirects whose target leads nowhere: no route matches it, its scheme
/// is not dispatched to another stack, and no declared redirect takes it further.
///
/// Each redirect's `from` pattern is sampled with values that include one for every kind
/// of constrained route parameter, and its `to` is filled from each sample's captures.
/// It is reported when no filled target resolves and the sampling was complete.
struct RedirectTargetCheck {
    let redirects: RedirectRules
    let routes: RouteTable
    /// Whether the bundle has fallback rules, which see unmatched URLs.
    let hasFallbacks: Bool
    let samples: ParameterSamples
    let lua: LuaSourceText

    func findings() -> [Finding] {
        guard let table = redirects.table else { return [] }
        var findings: [Finding] = []
        for sample in SampleURLs.ofRedirects(redirects, samples: samples) where sample.isComplete {
            let matches = sample.matches
            for rule in sample.rules {
                var example: String?
                var resolved = false
                for match in matches {
                    guard let problem = problem(with: redirects.target(of: rule, for: match), in: table) else {
                        resolved = true
                        break
                    }
                    if example == nil { example = problem }
                }
                guard !resolved, let example else { continue }
                let ending = hasFallbacks ? "only the fallback rules can handle it" : "it ends unmatched"
                findings.append(
                    Finding(
                        .warning, .redirectToNothing,
                        "redirect from \"\(rule.from)\" to \"\(rule.to)\" leads nowhere: \(example); \(ending) — fix the target "
                            + "or add a route for it",
                        at: lua.location(declaredAt: rule.location, [.string(rule.to), .name("redirect")])))
            }
        }
        return findings
    }

    /// Why a target leads nowhere, or `nil` when it goes somewhere: a route, a dispatched
    /// scheme or another redirect.
    private func problem(with target: String, in table: RouteTable) -> String? {
        let uri: URI
        do {
            uri = try URI(target)
        } catch {
            return "\(target) is not a valid URL (\(error))"
        }
        let scheme = uri.scheme?.lowercased()
        if let scheme, routes.options.dispatchedSchemes.contains(scheme) { return nil }
        if routes.match(uri) != nil || table.match(uri) != nil { return nil }
        let handover = scheme.map { "\"\($0)\" is not a dispatched scheme" } ?? "it has no scheme to dispatch on"
        return "no route matches \(target), \(handover) and no redirect takes it further"
    }
}
