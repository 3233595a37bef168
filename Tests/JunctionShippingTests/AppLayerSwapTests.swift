import Junction
import JunctionShipping
import Testing

/// One rule for what the app registers at run time: every activation keeps it. A swap to
/// another bundle — as an installer makes, with a snapshot built without the router — keeps
/// each kind: Swift interceptors, async interceptors, code routes and group edits.
@MainActor
@Suite struct AppLayerSwapTests {
    /// A kind of registration: how the app makes it, and what an open shows of it.
    struct Kind: Sendable, CustomTestStringConvertible {
        let name: String
        let register: @MainActor @Sendable (Router) throws -> Void
        let url: String
        let expected: String
        var testDescription: String { name }
    }

    nonisolated static let kinds: [Kind] = [
        Kind(
            name: "Swift interceptor",
            register: { router in
                try router.add(
                    SwiftInterceptor("recall", scope: .all) { _, _ in .reject(reason: "recalled", code: 410) })
            },
            url: PolicyFixture.url, expected: "failed: rejected: rejected (410) by recall: recalled"),
        Kind(
            name: "async interceptor",
            register: { router in
                try router.add(
                    AsyncInterceptor("recall", scope: .all) { _, _ in .reject(reason: "recalled", code: 410) })
            },
            url: PolicyFixture.url, expected: "failed: rejected: rejected (410) by recall: recalled"),
        Kind(
            name: "code route",
            register: { router in
                try router.add(Route(name: "flash", pattern: "myapp://flash", target: "PA", isExported: true))
            },
            url: "myapp://flash", expected: "opened flash"),
        Kind(
            name: "group edit",
            register: { router in
                try router.add(
                    SwiftInterceptor("members-only", scope: .group("vip")) { _, _ in
                        .gate(url: "myapp://x", resume: false)
                    })
                try router.add(route: "x", toGroup: "vip")
            },
            url: PolicyFixture.url,
            expected: "failed: rejected: rejected (508) by members-only: gate loop: myapp://x gates itself"),
    ]

    /// What an open did, without the page's number (`opened flash #2` → `opened flash`).
    static func shown(_ opening: Opening) -> String {
        opening.summary.replacing(/\s#\d+$/, with: "")
    }

    @Test(arguments: kinds)
    func aSwapToAnotherBundleKeepsWhatTheAppRegistered(_ kind: Kind) async throws {
        let policy = ActivePolicy(PolicyFixture.snapshotA)
        let router = RouterPolicyTests.router(policy)
        try kind.register(router)
        #expect(Self.shown(await router.open(kind.url)) == kind.expected, "before the swap")
        // What an installer activates: a snapshot built without the router.
        policy.activate(PolicyFixture.snapshotB)
        #expect(policy.current.bundle?.manifest.name == "policy-b")
        #expect(Self.shown(await router.open(kind.url)) == kind.expected, "after the swap")
    }

    @Test func anInterceptorAnAcceptancePolicyGivesWinsOverTheAppsOfTheSameName() throws {
        let given = SwiftInterceptor("audit", scope: .all) { _, _ in .continue }
        let policy = ActivePolicy(PolicyFixture.snapshotA)
        let router = RouterPolicyTests.router(policy)
        try router.add(SwiftInterceptor("audit", scope: .all) { _, _ in .reject(reason: "app", code: 403) })
        policy.activate(
            PolicySnapshot(decider: try Decider(bundle: PolicyFixture.b, interceptors: [given]), origin: .update))
        let decision = policy.decide(RouteRequest(PolicyFixture.url))
        #expect(decision.summary.hasPrefix("open"))
        #expect(policy.appRoutes.interceptors.map(\.name) == ["audit"])
        #expect(router.removeInterceptor(named: "audit"))
        #expect(policy.appRoutes.interceptors.isEmpty)
    }
}
