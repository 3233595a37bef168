import Junction
import JunctionAuthoring
import JunctionTestSupport
import Testing

/// docs/tour.md's "Deciding a request" snippet, kept true.
@Suite struct ReadmeDecidingTests {
    static let example = CLIPaths.repositoryRoot + "/rules/example"

    @Test func theSnippetDoesWhatItSays() throws {
        let bundle = try RuleBundle.load(directory: Self.example)
        let audit = SwiftInterceptor("audit", scope: .all, priority: 200) { request, context in
            request.source == .external && request.route?.isExported == false
                ? .reject(reason: "not for other apps", code: 403) : .continue
        }
        let decider = try Decider(bundle: bundle, interceptors: [audit])

        let guest = ContextSnapshot(["app_version": "5.2.0"])
        let decision = decider.decide(RouteRequest("myapp://moments/7", source: .push), context: guest)
        guard case .gate(let url, let resume) = decision.outcome else {
            Issue.record("expected a gate, got \(decision.summary)")
            return
        }
        #expect(url == "myapp://login" && resume)
        #expect(decision.summary == "gate myapp://login, then resume")
        #expect(
            decision.trace.steps.map(\.description) == [
                "match moments: myapp://moments(/:id)",
                "access moments: exported",
                "global audit (swift) → continue",
                "global push-audit (interceptors.lua:4) → continue",
                "group login (policies.lua:4) → gate myapp://login",
            ])

        let member = ContextSnapshot(["user": ["id": 1]])
        let opened = decider.decide(RouteRequest("myapp://feed/7?from=share"), context: member)
        #expect(opened.match?.route.name == "moments")
        #expect(opened.params == ["id": 7])
        #expect(opened.redirects == ["myapp://feed/7?from=share"])
    }
}
