import Junction
import JunctionShipping
import Testing

/// A router built on a shared ``ActivePolicy`` decides each open under the snapshot current
/// when the open starts; a swap changes what later opens reach and nothing on the stack.
@MainActor
@Suite struct RouterPolicyTests {
    /// A router on `policy` with page factories for both bundles' targets; a page's content
    /// is its target's name.
    static func router(_ policy: ActivePolicy) -> Router {
        let router = Router(policy: policy)
        for target in ["PA", "PB"] { router.register(page: target) { _ in target } }
        return router
    }

    /// `PA+a`: the page's target and the stamps its parameters carry.
    static func label(_ opening: Opening) -> String {
        guard case .opened(let page) = opening, let target = page.content as? String else { return "\(opening)" }
        return ([target] + ["a", "b"].filter { page.params[$0] != nil }).joined(separator: "+")
    }

    @Test func opensAfterASwapUseTheNewBundle() async {
        let policy = ActivePolicy(PolicyFixture.snapshotA)
        let router = Self.router(policy)
        #expect(Self.label(await router.open(PolicyFixture.url)) == "PA+a")
        policy.activate(PolicyFixture.snapshotB)
        #expect(router.decider === PolicyFixture.snapshotB.decider)
        #expect(Self.label(await router.open(PolicyFixture.url)) == "PB+b")
        #expect(router.canOpen(PolicyFixture.url))
    }

    @Test func aSwapLeavesThePageStackUntouched() async {
        let policy = ActivePolicy(PolicyFixture.snapshotA)
        let presenter = HeadlessPresenter()
        let router = Router(policy: policy, presenter: presenter)
        for target in ["PA", "PB"] { router.register(page: target) { _ in target } }
        var results: [RouteResult.Code] = []
        await router.open(PolicyFixture.url)
        await router.open(PolicyFixture.url) { results.append($0.code) }
        await router.open(PolicyFixture.url)
        let before = router.pages.map { "\($0.id) \($0.content as! String) \($0.params.values.keys.sorted())" }
        let log = presenter.log

        policy.activate(PolicyFixture.snapshotB)
        #expect(router.pages.map { "\($0.id) \($0.content as! String) \($0.params.values.keys.sorted())" } == before)
        #expect(presenter.log == log, "a swap shows nothing")
        #expect(results.isEmpty)

        // The pages opened under A are popped as usual, and their openers get one result each.
        router.back()
        router.back()
        #expect(results == [.cancelled])
        await router.open(PolicyFixture.url)
        #expect(router.pages.map { $0.content as! String } == ["PA", "PB"])
    }

    @Test func anOpenInFlightDuringASwapFinishesUnderTheOldBundle() async throws {
        let held = HeldInterceptor()
        let policy = ActivePolicy(
            PolicySnapshot(
                decider: try Decider(bundle: PolicyFixture.a, interceptors: [held.interceptor]), origin: .app))
        let router = Self.router(policy)
        let opening = Task { await router.open(PolicyFixture.url) }
        // Wait off the main actor, which the open needs to start.
        await Task.detached { held.entered.wait() }.value
        policy.activate(PolicyFixture.snapshotB)
        held.release.signal()
        #expect(Self.label(await opening.value) == "PA+a")
        #expect(Self.label(await router.open(PolicyFixture.url)) == "PB+b")
    }

    @Test func loadingABundleOnASharedPolicyKeepsTheSwiftInterceptors() throws {
        let audit = SwiftInterceptor("audit", scope: .all) { _, _ in .continue }
        let policy = ActivePolicy(
            PolicySnapshot(
                decider: try Decider(bundle: PolicyFixture.a, interceptors: [audit]), origin: .embedded,
                identity: UpdateIdentity(seq: 0, artifactSHA256: String(repeating: "0", count: 64))))
        let router = Self.router(policy)
        try router.load(bundle: PolicyFixture.b)
        #expect(policy.current.bundle?.manifest.name == "policy-b")
        #expect(policy.current.decider.interceptors.map(\.name) == ["audit"])
        #expect(policy.current.origin == .app)
        #expect(policy.current.identity == nil)
        try router.load(routes: PolicyFixture.a.routes)
        #expect(policy.current.bundle == nil)
        #expect(policy.current.decider.interceptors.map(\.name) == ["audit"])
    }

    @Test func addingAnInterceptorKeepsTheSnapshotsBundleOriginAndIdentity() throws {
        let policy = ActivePolicy(PolicyFixture.snapshotB)
        let router = Self.router(policy)
        try router.add(SwiftInterceptor("audit", scope: .all) { _, _ in .continue })
        #expect(policy.current !== PolicyFixture.snapshotB)
        #expect(policy.current.bundle?.manifest.name == "policy-b")
        #expect(policy.current.origin == .update)
        #expect(policy.current.identity == PolicyFixture.snapshotB.identity)
        #expect(router.removeInterceptor(named: "audit"))
        #expect(!router.removeInterceptor(named: "audit"))
        #expect(policy.current.decider.interceptors.isEmpty)
    }
}
