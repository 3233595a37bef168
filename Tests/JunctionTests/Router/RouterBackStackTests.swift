import Junction
import Testing

/// Deep links that build their back stack: a route's `meta.stack` puts the pages a user
/// would have come through under a link from outside, when the app is at its start.
@MainActor
@Suite struct RouterBackStackTests {
    static func router(rejectOrders: Bool = false) throws -> Router {
        let routes = try RouteTable(routes: [
            Route(name: "home", pattern: "app://home"),
            Route(name: "orders", pattern: "app://orders", parameters: [ParameterDeclaration("status")]),
            Route(name: "item", pattern: "app://item/:id"),
            Route(
                name: "order", pattern: "app://order/:no", isExported: true,
                meta: ["stack": ["home", "app://orders?status={status}&from={no}"]]),
            Route(
                name: "broken", pattern: "app://broken", isExported: true,
                meta: ["stack": ["home", "nowhere", 42, "app://item/{id}"]]),
        ])
        let interceptors =
            rejectOrders
            ? [SwiftInterceptor("no orders", scope: .route("orders")) { _, _ in .reject(reason: "closed", code: 403) }]
            : []
        let decider = try Decider(routes: routes, interceptors: interceptors)
        let router = Router(policy: ActivePolicy(PolicySnapshot(decider: decider, origin: .app)))
        for target in ["home", "orders", "item", "order", "broken"] { router.register(page: target) { TestPage($0) } }
        return router
    }

    /// The stack before (tabs `|`-separated from the URLs opened, as `internal`), the link
    /// and its source → the visible stack after.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        var tabs: [String] = []
        var before: [String] = []
        let link: String
        var source: RequestSource = .push
        var rejectOrders = false
        var asyncRejectOrders = false
        let stack: [String]
        var testDescription: String { name }
    }

    nonisolated static let cases: [Case] = [
        Case(name: "cold start", link: "app://order/7?status=paid", stack: ["home", "orders", "order"]),
        Case(name: "tabs installed", tabs: ["app://home"], link: "app://order/7", stack: ["home", "orders", "order"]),
        Case(
            name: "already there", tabs: ["app://home"], before: ["app://orders"], link: "app://order/7",
            stack: ["home", "orders", "order"]),
        Case(
            name: "the user is elsewhere", tabs: ["app://home"], before: ["app://item/1"], link: "app://order/7",
            stack: ["home", "item", "order"]),
        Case(name: "from inside the app", link: "app://order/7", source: .internal, stack: ["order"]),
        Case(
            name: "an entry a rule rejects is left out", link: "app://order/7", rejectOrders: true,
            stack: ["home", "order"]),
        Case(
            name: "an entry an async interceptor rejects is left out", link: "app://order/7",
            asyncRejectOrders: true, stack: ["home", "order"]),
        Case(name: "entries that are nothing are left out", link: "app://broken", stack: ["home", "broken"]),
    ]

    @Test(arguments: cases)
    func aLinkFromOutsideBuildsItsBackStackAtTheAppsStart(_ test: Case) async throws {
        let router = try Self.router(rejectOrders: test.rejectOrders)
        if test.asyncRejectOrders {
            try router.add(
                AsyncInterceptor("no orders", scope: .route("orders")) { _, _ in .reject(reason: "closed", code: 403) })
        }
        if !test.tabs.isEmpty { try await router.setTabs(test.tabs) }
        for url in test.before { await router.open(url) }
        let opening = await router.open(test.link, source: test.source)
        #expect(opening.page?.name == test.stack.last)
        #expect(router.pages.map(\.name) == test.stack)
    }

    @Test func theBuiltPagesGetTheLinksParametersAndBackBehaves() async throws {
        let presenter = HeadlessPresenter()
        let router = try Router(
            routes: Self.router().decider.routes, presenter: presenter)
        for target in ["home", "orders", "order"] { router.register(page: target) { TestPage($0) } }
        await router.open("app://order/AB%2F7?status=un paid", source: .universalLink)
        let orders = try #require(router.pages.dropLast().last)
        #expect(orders.url == "app://orders?status=un%20paid&from=AB%2F7")
        #expect(orders.params.string("status") == "un paid")
        #expect(
            presenter.log == [
                "root of tab 0: home #1 (not animated)", "push orders #2 (not animated)", "push order #3",
            ])
        router.back()
        #expect(router.top?.name == "orders")
    }
}
