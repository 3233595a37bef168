import Junction
import Testing

/// Navigation by URL: routes to `junction.tab` and `junction.back` move around the stack
/// under the same access rules as any route.
@MainActor
@Suite struct RouterNavigationTargetTests {
    static func router(presenter: HeadlessPresenter = HeadlessPresenter()) async throws -> Router {
        let routes = try RouteTable(routes: [
            Route(name: "home", pattern: "app://home"),
            Route(name: "orders", pattern: "app://orders"),
            Route(name: "item", pattern: "app://item/:id", isExported: true),
            Route(name: "secret", pattern: "app://secret"),
            Route(
                name: "nav.tab", pattern: "app://tab/:index", target: NavigationTarget.tab.rawValue, isExported: true,
                parameters: [ParameterDeclaration("index", type: .int, isRequired: true)]),
            Route(
                name: "nav.back", pattern: "app://back", target: NavigationTarget.back.rawValue, isExported: true,
                parameters: [ParameterDeclaration("count", type: .int)]),
            Route(name: "nav.back.internal", pattern: "app://internal/back", target: NavigationTarget.back.rawValue),
        ])
        let router = try Router(routes: routes, presenter: presenter)
        for target in ["home", "orders", "item", "secret"] { router.register(page: target) { TestPage($0) } }
        try await router.setTabs(["app://home", "app://orders"])
        await router.open("app://item/1")
        await router.open("app://item/2")
        await router.open("app://item/3")
        return router
    }

    /// A URL (and its source) → the visible stack after it (route names and the item ids)
    /// and what the open did, without page ids.
    struct Case: Sendable, CustomTestStringConvertible {
        let url: String
        var source: RequestSource = .internal
        let stack: String
        let opening: String
        var testDescription: String { url + (source == .internal ? "" : " from \(source)") }
    }

    nonisolated static let cases: [Case] = [
        Case(url: "app://back", stack: "home item1 item2", opening: "navigated to item"),
        Case(url: "app://back?count=2", stack: "home item1", opening: "navigated to item"),
        Case(url: "app://back?count=3", stack: "home", opening: "navigated to home"),
        Case(url: "app://back?count=4", stack: "home item1 item2 item3", opening: "failed: cannot navigate"),
        Case(url: "app://back?count=-1", stack: "home item1 item2 item3", opening: "failed: cannot navigate"),
        Case(url: "app://back?to=home", stack: "home", opening: "navigated to home"),
        Case(url: "app://back?to=orders", stack: "home item1 item2 item3", opening: "failed: cannot navigate"),
        Case(url: "app://back?before=item", stack: "home item1 item2", opening: "navigated to item"),
        Case(url: "app://back?count=2&then=app://item/9", stack: "home item1 item9", opening: "opened item"),
        Case(url: "app://tab/1", stack: "orders", opening: "navigated to orders"),
        Case(url: "app://tab/1?filter=unpaid", stack: "orders", opening: "navigated to orders"),
        Case(url: "app://tab/7", stack: "home item1 item2 item3", opening: "failed: cannot navigate"),
        Case(url: "app://tab/x", stack: "home item1 item2 item3", opening: "failed: unknown route"),
        // The same access rules as any route: not exported, not from outside…
        Case(url: "app://internal/back", source: .push, stack: "home item1 item2 item3", opening: "failed: rejected"),
        // …and `then` keeps the caller's source, so it cannot lift a link past them.
        Case(
            url: "app://back?then=app://secret", source: .push, stack: "home item1 item2", opening: "failed: rejected"),
        Case(url: "app://back?then=app://secret", stack: "home item1 item2 secret", opening: "opened secret"),
    ]

    @Test(arguments: cases)
    func navigationURLsMoveAroundTheStack(_ test: Case) async throws {
        let router = try await Self.router()
        let opening = await router.open(test.url, source: test.source)
        let stack = router.pages.map { page in
            page.name == "item" ? "item" + (page.params.string("id") ?? "?") : page.name
        }
        #expect(stack.joined(separator: " ") == test.stack)
        let words = opening.summary.split(separator: " ")
        let summary =
            opening.error.map { "failed: \($0.code)" }
            ?? words.prefix(words.first == "opened" ? 2 : 3).joined(separator: " ")
        #expect(summary == test.opening)
    }

    @Test func aTabURLPassesItsOtherParametersToTheTabsRoot() async throws {
        let presenter = HeadlessPresenter()
        let router = try await Self.router(presenter: presenter)
        let log = ResultLog()
        presenter.clear()
        await router.open("app://tab/1?filter=unpaid", onResult: log.callback("tab"))
        #expect(router.tabs[1].tabParams?.string("filter") == "unpaid")
        #expect(router.tabs[1].tabParams?["index"] == nil)
        #expect(log.lines == ["tab: ok"])
        #expect(presenter.log == [#"select tab 1 (orders #2) {"filter":"unpaid"}"#])
    }

    @Test func backThenOpenShowsOneTransition() async throws {
        let presenter = HeadlessPresenter()
        let router = try await Self.router(presenter: presenter)
        presenter.clear()
        await router.open("app://back?count=2&then=app://item/9")
        #expect(presenter.log == ["pop to item #3, removing item #5, item #4 (not animated)", "push item #6"])
    }

    @Test func canOpenKnowsTheNavigationTargets() async throws {
        let router = try await Self.router()
        #expect(router.canOpen("app://back"))
        #expect(router.capabilities(hostVersion: SemanticVersion(1, 0, 0)).opens(target: "junction.tab"))
    }
}
