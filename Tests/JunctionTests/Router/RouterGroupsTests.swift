import Junction
import JunctionAuthoring
import Testing

/// Groups at run time: list a group's routes, put a route into a group or take it out from
/// Swift; the group's policies follow at once and the change stays through bundle swaps.
@MainActor
@Suite struct RouterGroupsTests {
    static let guest = RouterGateTests.guest

    @Test func aGroupListsTheRoutesOfItsTableInOrder() throws {
        let router = try RouterFixture.router()
        #expect(
            router.routes(inGroup: "login").map(\.name) == [
                "user.settings", "moments", "checkout", "checkout.v2", "orders", "order.detail", "video.capture",
                "video.publish",
            ])
        #expect(router.routes(inGroup: "anti_addiction").map(\.name) == ["live.room", "live.web", "video.capture"])
        #expect(router.routes(inGroup: "no-such-group").isEmpty)
    }

    /// A change → what a guest's open of a URL does.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let change: @MainActor @Sendable (Router) throws -> Void
        let url: String
        let summary: String
        var testDescription: String { name }
    }

    nonisolated static let cases: [Case] = [
        Case(name: "home, as the bundle has it", change: { _ in }, url: "myapp://home", summary: "opened home"),
        Case(
            name: "home put into login", change: { try $0.add(route: "home", toGroup: "login") }, url: "myapp://home",
            summary: "gated by myapp://login"),
        Case(
            name: "moments, as the bundle has it", change: { _ in }, url: "myapp://moments/7",
            summary: "gated by myapp://login"),
        Case(
            name: "moments taken out of login", change: { try $0.remove(route: "moments", fromGroup: "login") },
            url: "myapp://moments/7", summary: "opened moments"),
        Case(
            name: "put in, then taken out",
            change: {
                try $0.add(route: "home", toGroup: "login")
                try $0.remove(route: "home", fromGroup: "login")
            }, url: "myapp://home", summary: "opened home"),
        Case(
            name: "a code route put into login",
            change: {
                try $0.add(Route(name: "flash", pattern: "myapp://flash/:id"), page: { TestPage($0) })
                try $0.add(route: "flash", toGroup: "login")
            }, url: "myapp://flash/1", summary: "gated by myapp://login"),
    ]

    @Test(arguments: cases)
    func aMembershipChangesWhichPoliciesApply(_ test: Case) async throws {
        let router = try RouterFixture.router(context: Self.guest)
        try test.change(router)
        #expect(await router.open(test.url).summary.hasPrefix(test.summary))
    }

    @Test func membershipsStayThroughABundleSwapAndGroupsAddedComeAfterTheRoutesOwn() throws {
        let router = try RouterFixture.router(context: Self.guest)
        try router.add(route: "checkout", toGroup: "vip")
        try router.add(route: "home", toGroup: "login")
        try router.remove(route: "moments", fromGroup: "login")
        try router.load(bundle: RuleBundle.load(directory: RouterFixture.example))
        #expect(router.decider.routes.route(named: "checkout")?.groups == ["login", "vip"])
        #expect(router.routes(inGroup: "vip").map(\.name) == ["checkout"])
        #expect(router.routes(inGroup: "login").contains { $0.name == "home" })
        #expect(!router.routes(inGroup: "login").contains { $0.name == "moments" })
        #expect(
            router.appRoutes.memberships == [
                AppRoutes.Membership(route: "checkout", group: "vip", isMember: true),
                AppRoutes.Membership(route: "home", group: "login", isMember: true),
                AppRoutes.Membership(route: "moments", group: "login", isMember: false),
            ])
        // A later table without the route leaves the membership waiting for one with it.
        try router.load(routes: RouteTable(routes: [Route(name: "other", pattern: "myapp://other")]))
        #expect(router.routes(inGroup: "vip").isEmpty)
        try router.load(bundle: RuleBundle.load(directory: RouterFixture.example))
        #expect(router.routes(inGroup: "vip").map(\.name) == ["checkout"])
    }

    @Test func aSwiftInterceptorOfAGroupFollowsAMembership() throws {
        let router = try RouterFixture.router()
        try router.add(
            SwiftInterceptor("vip.only", scope: .group("vip")) { _, _ in .reject(reason: "vip only", code: nil) })
        #expect(router.decider.decide(RouteRequest("myapp://home")).summary.hasPrefix("open home"))
        try router.add(route: "home", toGroup: "vip")
        guard case .reject(let rejection) = router.decider.decide(RouteRequest("myapp://home")).outcome else {
            Issue.record("home was not refused")
            return
        }
        #expect(rejection.reason == "vip only")
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let route: String
        let group: String
        let message: String
        var testDescription: String { "\(route) → \(group)" }
    }

    nonisolated static let refusals: [Refusal] = [
        Refusal(route: "hom", group: "login", message: "no route is named \"hom\"; did you mean \"home\"?"),
        Refusal(route: "home", group: "", message: "group name \"\" must be non-empty and without spaces"),
        Refusal(route: "home", group: "two words", message: "group name \"two words\" must be non-empty"),
        Refusal(route: "", group: "login", message: "no route is named \"\""),
    ]

    @Test(arguments: refusals)
    func aBadMembershipIsRefusedAndChangesNothing(_ refusal: Refusal) throws {
        let router = try RouterFixture.router()
        let before = router.policy.current
        #expect {
            try router.add(route: refusal.route, toGroup: refusal.group)
        } throws: { error in
            (error as? BundleError)?.description.contains(refusal.message) == true
        }
        #expect(router.policy.current === before)
        #expect(router.appRoutes.isEmpty)
    }
}
