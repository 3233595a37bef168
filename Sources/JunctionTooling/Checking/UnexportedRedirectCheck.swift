import JunctionCore
import JunctionLua
import Junction

/// Finds redirects from a route that links from outside the app may open (`exported`) to
/// one they may not: those requests end refused (`not_exported`, 403) though the link was
/// good. Tonight's rollout redirected `checkout` to `checkout.v2`, which was not exported,
/// and every push, H5 and universal link to checkout failed for the rollout's users.
///
/// A redirect keeps the request's source, and access is checked where it lands. Checked
/// for redirects rules return with a literal target (``RuleRedirects``) and for declared
/// redirects, whose `from` URLs are sampled: one that an exported route matches is sent
/// where outside links may not go. (An old link that no route matches may be internal
/// only; it is not flagged.) A warning (`redirect-to-unexported`): a rule may redirect internal requests only.
struct UnexportedRedirectCheck {
    let graph: RuleRedirects
    let redirects: RedirectRules
    let maximumRedirects: Int
    let samples: ParameterSamples
    let lua: LuaSourceText

    /// The most exported routes one finding names.
    static let routesNamed = 3

    func findings() -> [Finding] {
        let routes = graph.routes.routes
        var findings: [Finding] = []
        for (edge, from) in graph.edges where !routes[edge.landing].isExported {
            let exported = (from ?? Array(routes.indices)).filter { routes[$0].isExported }
            guard !exported.isEmpty else { continue }
            let names = exported.prefix(Self.routesNamed).map { MessageText.quoted(routes[$0].name) }
            let more = exported.count > names.count ? " and \(exported.count - names.count) more" : ""
            findings.append(
                Finding(
                    .warning, .redirectToUnexported,
                    "\(edge.rule) redirects exported route\(exported.count == 1 ? "" : "s") "
                        + "\(names.joined(separator: ", "))\(more) to \(edge.target), whose route "
                        + "\(MessageText.quoted(routes[edge.landing].name)) is not exported: "
                        + message(landing: routes[edge.landing].name),
                    at: lua.location(
                        of: [.string(edge.target), .name("redirect")], in: edge.use.file, line: edge.use.line,
                        search: .near)))
        }
        findings += declaredFindings()
        return FindingLimits.limited(
            findings.sorted { UndefinedGlobalCheck.precedes($0, $1) }, "redirects to routes that are not exported")
    }

    private func message(landing: String) -> String {
        "links from outside the app (push, h5, universal_link, external) that it redirects are refused "
            + "(not_exported, 403) — export \(MessageText.quoted(landing)) (exported: true in the route table), "
            + "or redirect internal requests only (req.source == \"internal\")"
    }

    /// Declared redirects from URLs outside links may open to a route they may not.
    private func declaredFindings() -> [Finding] {
        let routes = graph.routes
        var findings: [Finding] = []
        for sample in SampleURLs.ofRedirects(redirects, samples: samples) {
            for rule in sample.rules {
                for match in sample.matches {
                    guard let source = routes.match(match.uri).map({ routes.routes[$0.routeIndex] }), source.isExported,
                        let landing = RedirectLanding(
                            redirects.target(of: rule, for: match), hops: 1, routes: routes, redirects: redirects,
                            maximumRedirects: maximumRedirects),
                        case .route(let destination) = landing.place, !destination.isExported
                    else { continue }
                    findings.append(
                        Finding(
                            .warning, .redirectToUnexported,
                            "redirect from \(MessageText.quoted(rule.from)) sends \(match.uri.string), which exported route \(MessageText.quoted(source.name)) opens, to \(landing.url), whose "
                                + "route \(MessageText.quoted(destination.name)) is not exported: "
                                + message(landing: destination.name),
                            at: lua.location(declaredAt: rule.location, [.string(rule.to), .name("redirect")])))
                    break
                }
            }
        }
        return findings
    }
}
