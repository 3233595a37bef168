import Junction
import JunctionAuthoring
import Testing

/// docs/tour.md's "What the routers it replaces had" snippet, kept true: its lines, with
/// `#expect`s where the tour has comments.
@MainActor
@Suite struct ReadmeRouterFeaturesTests {
    /// Stands in for a mini-program runtime that opens H5 pages on its own stack.
    final class MiniProgram {
        var opened: [(url: String, id: PageID)] = []
        func open(_ url: String, id: PageID) { opened.append((url, id)) }
    }

    /// Stands in for screen tracking.
    final class Tracker {
        var lines: [String] = []
        func left(_ name: String, _ code: RouteResult.Code, _ reason: ClosedPage.Reason) {
            lines.append("\(name) \(code) \(reason)")
        }
    }

    @Test func theFeaturesDoWhatTheReadmeSays() async throws {
        let router = try RouterFixture.router()
        let miniProgram = MiniProgram()
        let tracker = Tracker()
        await router.open("myapp://home")
        await router.open("myapp://moments/1")
        await router.open("myapp://moments/2")

        // --- docs/tour.md: "What the routers it replaces had" ---
        await router.open("myapp://order/AB123456")
        let second = await router.open("myapp://order/AB123456")
        #expect(second.summary.hasPrefix("reused order.detail"))

        let page = try await router.page(for: "myapp://user/42")
        #expect(!router.pages.contains { $0 === page })
        try router.show(page)
        #expect(router.top === page)

        await router.open("myapp://back?count=2&then=myapp://moments/7")
        #expect(router.pages.map(\.name) == ["home", "moments", "moments", "moments"])
        #expect(router.top?.params.int("id") == 7)

        router.register(dispatcher: "wxmp") { handOver in
            miniProgram.open(handOver.url, id: handOver.id)
            return .openedElsewhere
        }
        var coupon: RouteResult?
        await router.open("wxmp://coupons") { coupon = $0 }
        router.finish(try #require(miniProgram.opened.first).id, with: .ok("SAVE10"))
        #expect(coupon?.data as? String == "SAVE10")

        router.holdUntilReady(deadline: .seconds(10))
        #expect(!router.isReady)
        router.ready()
        await router.settle()
        #expect(router.isReady)

        router.didClose = { closed in tracker.left(closed.page.name, closed.result.code, closed.reason) }
        router.back()
        #expect(tracker.lines == ["moments cancelled popped"])

        try router.add(Route(name: "flash", pattern: "myapp://flash/:id", isExported: true), page: { TestPage($0) })
        #expect(await router.open("myapp://flash/1", source: .push).page?.name == "flash")
        try router.load(bundle: RuleBundle.load(directory: RouterFixture.example))
        #expect(router.decider.routes.route(named: "flash") != nil)

        try router.add(route: "flash", toGroup: "login")
        let names = router.routes(inGroup: "login").map(\.name)
        #expect(names.first == "user.settings")
        #expect(names.dropFirst().first == "moments")
        #expect(names.last == "flash")
        router.context = RouterGateTests.guest
        #expect(await router.open("myapp://flash/2").summary.hasPrefix("gated by myapp://login"))
    }
}
