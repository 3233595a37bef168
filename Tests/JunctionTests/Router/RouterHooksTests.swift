import Junction
import JunctionAuthoring
import Testing

/// Hooks, Swift interceptors and replacing the bundle at run time.
@MainActor
@Suite struct RouterHooksTests {
    @Test func hooksRunInOrderWillOpenDecisionDidOpen() async throws {
        let router = try RouterFixture.router()
        var events: [String] = []
        router.willOpen = { events.append("willOpen \($0.url)") }
        router.decisionObserver = { events.append("decision \($0.summary) (\($0.trace.steps.count) steps)") }
        router.didOpen = { request, opening in events.append("didOpen \(request.url): \(opening.summary)") }
        await router.open("myapp://feed/7")
        _ = try await router.invoke("myapp://action/share")
        await router.open("myapp://user/settings", source: .push)
        #expect(
            events == [
                "willOpen myapp://feed/7",
                #"decision open moments {"id":7}, after redirects myapp://feed/7 → myapp://moments/7 (4 steps)"#,
                "didOpen myapp://feed/7: opened moments #1",
                "willOpen myapp://action/share",
                "decision open share (2 steps)",
                #"didOpen myapp://action/share: answered {"channel":"system","shared":""}"#,
                "willOpen myapp://user/settings",
                #"decision rejected (403): route "user.settings" is not exported, so a request from "push" may not open it (only internal ones may); mark it exported: true in the route table to allow it (2 steps)"#,
                #"didOpen myapp://user/settings: failed: rejected: rejected (403): route "user.settings" is not exported, so a request from "push" may not open it (only internal ones may); mark it exported: true in the route table to allow it"#,
            ])
    }

    @Test func aGateShowsAsTwoDecisionsAndResumeAsAThird() async throws {
        let router = try RouterFixture.router(context: ContextSnapshot(["hour": 12]))
        await router.open("myapp://home")
        var decisions: [String] = []
        router.decisionObserver = { decisions.append("\($0.request.url): \($0.summary)") }
        await router.open("myapp://checkout")
        router.context = ContextSnapshot(["user": ["id": 3]])
        router.finish(try #require(router.top).id, with: .ok())
        await router.settle()
        #expect(
            decisions == [
                "myapp://checkout: gate myapp://login, then resume",
                "myapp://login: open login",
                "myapp://checkout: open checkout",
            ])
    }

    @Test func swiftInterceptorsJoinTheRulesAndCanBeRemoved() async throws {
        let router = try RouterFixture.router()
        try router.add(
            SwiftInterceptor("no-profiles", scope: .route("user.profile")) { _, _ in
                .reject(reason: "profiles are closed", code: 503)
            })
        #expect(await router.open("myapp://user/42").error?.rejection?.reason == "profiles are closed")
        #expect(throws: BundleError.self) {
            try router.add(SwiftInterceptor("no-profiles", scope: .all) { _, _ in .continue })
        }
        #expect(router.removeInterceptor(named: "no-profiles"))
        #expect(!router.removeInterceptor(named: "no-profiles"))
        #expect(await router.open("myapp://user/42").page?.name == "user.profile")
    }

    @Test func loadingAnotherBundleSwapsRoutesAndRulesAndKeepsInterceptors() async throws {
        let router = try RouterFixture.router()
        try router.add(SwiftInterceptor("audit", scope: .all) { _, _ in .continue })
        let table = try RouteTable(routes: [Route(name: "home", pattern: "myapp://home", isExported: true)])
        try router.load(routes: table)
        #expect(await router.open("myapp://user/42").error?.code == .unknownRoute)
        let decision = router.decider.decide(RouteRequest("myapp://home"))
        #expect(decision.trace.steps.map(\.description).contains("global audit (swift) → continue"))
        try router.load(bundle: RuleBundle.load(directory: RouterFixture.example))
        #expect(await router.open("myapp://user/42").page?.name == "user.profile")
    }

    @Test func aBadInterceptorPatternKeepsTheRouterAsItWas() async throws {
        let router = try RouterFixture.router()
        #expect(throws: BundleError.self) {
            try router.add(SwiftInterceptor("bad", scope: .pattern("myapp://x/:a(")) { _, _ in .continue })
        }
        #expect(await router.open("myapp://user/42").page?.name == "user.profile")
    }
}
