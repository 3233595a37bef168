import Junction
import JunctionAuthoring
import Testing

/// Launch modes: `singleTop` pushes nothing twice, `singleTask` goes back to the page it
/// has; both reuse the page, renew its URL and parameters, and give every opener its result.
@MainActor
@Suite struct RouterLaunchModeTests {
    static func router(presenter: HeadlessPresenter = HeadlessPresenter()) throws -> Router {
        let routes = try RouteTable(routes: [
            Route(name: "home", pattern: "app://home"),
            Route(name: "item", pattern: "app://item/:id"),
            Route(name: "detail", pattern: "app://detail/:id", launchMode: .singleTop),
            Route(name: "cart", pattern: "app://cart", launchMode: .singleTask),
        ])
        let router = try Router(routes: routes, presenter: presenter)
        for target in ["home", "item", "detail", "cart"] { router.register(page: target) { TestPage($0) } }
        return router
    }

    /// URLs opened in order (`-URL` opens with `style: .replace`) → the visible stack as
    /// `name(url's last segment)` and the last open's summary without its page id.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let opens: [String]
        let stack: [String]
        let last: String
        var testDescription: String { name }
    }

    nonisolated static let cases: [Case] = [
        Case(
            name: "standard pushes twice", opens: ["app://home", "app://item/1", "app://item/1"],
            stack: ["home", "item 1", "item 1"], last: "opened item"),
        Case(
            name: "singleTop on top: reused (a double tap)", opens: ["app://home", "app://detail/1", "app://detail/1"],
            stack: ["home", "detail 1"], last: "reused detail"),
        Case(
            name: "singleTop on top with other parameters: reused and renewed",
            opens: ["app://home", "app://detail/1", "app://detail/2"], stack: ["home", "detail 2"],
            last: "reused detail"),
        Case(
            name: "singleTop below the top: pushed",
            opens: ["app://home", "app://detail/1", "app://item/1", "app://detail/1"],
            stack: ["home", "detail 1", "item 1", "detail 1"], last: "opened detail"),
        Case(
            name: "singleTask below: back to it",
            opens: ["app://home", "app://cart", "app://item/1", "app://item/2", "app://cart"],
            stack: ["home", "cart"], last: "reused cart"),
        Case(
            name: "singleTask absent: pushed", opens: ["app://home", "app://item/1", "app://cart"],
            stack: ["home", "item 1", "cart"], last: "opened cart"),
        Case(
            name: "replace is explicit: no reuse", opens: ["app://home", "app://detail/1", "-app://detail/1"],
            stack: ["home", "detail 1"], last: "opened detail"),
    ]

    @Test(arguments: cases)
    func launchModesDecideWhetherAPageIsReused(_ test: Case) async throws {
        let router = try Self.router()
        var last: Opening?
        for url in test.opens {
            last =
                url.hasPrefix("-")
                ? await router.open(String(url.dropFirst()), style: .replace) : await router.open(url)
        }
        let stack = router.pages.map { page in
            page.name + (page.url.split(separator: "/").last.map { $0 == Substring(page.name) ? "" : " \($0)" } ?? "")
        }
        #expect(stack == test.stack)
        let summary = try #require(last).summary
        #expect(summary.split(separator: " ").prefix(2).joined(separator: " ") == test.last)
    }

    @Test func everyOpenerOfAReusedPageGetsItsResultOnceAndPagesAboveAreCancelled() async throws {
        let presenter = HeadlessPresenter()
        let router = try Self.router(presenter: presenter)
        let log = ResultLog()
        await router.open("app://home")
        await router.open("app://cart", onResult: log.callback("first cart"))
        await router.open("app://item/1", onResult: log.callback("item"))
        presenter.clear()
        let opening = await router.open("app://cart", exts: ["animated": false], onResult: log.callback("second cart"))
        #expect(opening.summary == "reused cart #2")
        #expect(log.lines == ["item: cancelled"])
        #expect(
            presenter.log == [
                "pop to cart #2, removing item #3 (not animated)", "renew cart #2 with app://cart (not animated)",
            ])
        router.finish(try #require(router.top).id, with: .ok("paid"))
        #expect(log.lines == ["item: cancelled", "first cart: ok", "second cart: ok"])
        #expect(router.pages.map(\.name) == ["home"])
    }

    @Test func aRenewedPageCarriesTheNewOpensParameters() async throws {
        let router = try Self.router()
        await router.open("app://home")
        let first = try #require(await router.open("app://detail/1").page)
        let again = try #require(await router.open("app://detail/2?ref=feed").page)
        #expect(first === again)
        #expect(again.url == "app://detail/2?ref=feed")
        #expect(again.params.string("id") == "2")
    }

    @Test func rulesReadTheRouteOnTopAsTopRoute() async throws {
        let router = try Self.router()
        var tops: [String] = []
        router.willOpen = { request in
            tops.append(
                request.exts[Router.topRouteExt].flatMap { if case .string(let name) = $0 { name } else { nil } }
                    ?? "none")
        }
        await router.open("app://home")
        await router.open("app://detail/1", exts: [Router.topRouteExt: "forged"])
        await router.open("app://item/1")
        #expect(tops == ["none", "home", "detail"])
    }

    @Test func aLaunchModeIsReadFromTheRouteTableAndRefusedWhenUnknown() throws {
        let table = try RouteTable.load(
            text: """
                routes:
                  - { name: detail, pattern: "app://d/:id", launch: singleTop }
                  - { name: cart, pattern: "app://cart", launch: singleTask }
                """, file: "routes.yaml")
        #expect(table.routes.map(\.launchMode) == [.singleTop, .singleTask])
        #expect(throws: RouteTableError.self) {
            try RouteTable.load(
                text: "routes:\n  - { name: x, pattern: \"app://x\", launch: singletop }\n", file: "routes.yaml")
        }
    }
}
