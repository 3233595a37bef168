import Junction
import Testing

/// Pages without the stack: `page(for:)` decides and makes, `show(_:)` shows later, and
/// `open(_:content:)` shows what the app made under the URL's rules.
@MainActor
@Suite struct RouterPageForTests {
    /// URL (and source) → the page made (`name`) or the error code.
    struct Case: Sendable, CustomTestStringConvertible {
        let url: String
        var source: RequestSource = .internal
        var context: [String: RuleValue] = ["user": ["id": 1], "app_version": "5.2.0", "hour": 12]
        let made: String
        var testDescription: String { url }
    }

    nonisolated static let cases: [Case] = [
        Case(url: "myapp://user/42", made: "user.profile"),
        Case(url: "myapp://feed/7", made: "moments"),
        Case(url: "https://example.org/page", made: "https"),
        Case(url: "myapp://action/share", made: "not a page"),
        Case(url: "myapp://action/experiment/new-feed", made: "not a page"),
        Case(url: "myapp://user/settings", source: .push, made: "rejected"),
        Case(url: "myapp://checkout", context: ["hour": 12], made: "gated"),
        Case(url: "tp://pay", made: "unknown route"),
        Case(url: "myapp://web", made: "missing parameter"),
    ]

    @Test(arguments: cases)
    func decidesAndMakesThePageWithoutTouchingTheStack(_ test: Case) async throws {
        let presenter = HeadlessPresenter()
        let router = try RouterFixture.router(context: ContextSnapshot(test.context), presenter: presenter)
        var decisions = 0
        router.decisionObserver = { _ in decisions += 1 }
        var made: String
        do {
            let page = try await router.page(for: test.url, source: test.source)
            made = page.name
        } catch {
            made = "\(error.code)"
        }
        #expect(made == test.made)
        #expect(router.pages.isEmpty)
        #expect(presenter.log.isEmpty)
        #expect(decisions == 1)
    }

    @Test func aMadePageIsShownOnceUnderTheHooksAndGivesItsResult() async throws {
        let router = try RouterFixture.router()
        await router.open("myapp://home")
        let log = ResultLog()
        var events: [String] = []
        let page = try await router.page(for: "myapp://address/pick", onResult: log.callback("picker"))
        router.willOpen = { events.append("willOpen \($0.url)") }
        router.didOpen = { events.append("didOpen \($1.summary)") }
        #expect(try router.show(page).summary == "opened address.picker \(page.id)")
        #expect(router.top === page)
        #expect(events == ["willOpen myapp://address/pick", "didOpen opened address.picker \(page.id)"])
        #expect(throws: RouterError.self) { try router.show(page) }
        router.finish(page.id, with: .ok("Beijing"))
        #expect(log.lines == ["picker: ok"])
    }

    @Test func aMadePageOfASingleTopRouteOnTopIsNotShownTwice() async throws {
        let router = try RouterFixture.router()
        await router.open("myapp://home")
        let log = ResultLog()
        await router.open("myapp://order/AB123456", onResult: log.callback("first"))
        let second = try await router.page(for: "myapp://order/AB123456", onResult: log.callback("second"))
        let opening = try router.show(second)
        #expect(opening.page !== second)
        #expect(opening.summary == "reused order.detail #2")
        #expect(router.pages.map(\.name) == ["home", "order.detail"])
        router.back()
        #expect(log.lines == ["first: cancelled", "second: cancelled"])
    }

    @Test func appMadeContentGoesThroughTheRulesAndAGate() async throws {
        let router = try RouterFixture.router(context: ContextSnapshot(["hour": 12]))
        await router.open("myapp://home")
        router.removePage("checkout")  // the app makes the checkout page itself
        let opening = await router.open("myapp://checkout", content: "the app's checkout")
        #expect(opening.summary.hasPrefix("gated by myapp://login"))
        router.context = ContextSnapshot(["user": ["id": 3], "hour": 12])
        router.finish(try #require(router.top).id, with: .ok())
        await router.settle()
        #expect(router.top?.name == "checkout")
        #expect(router.top?.content as? String == "the app's checkout")
    }

    @Test func aRedirectWinsOverAppMadeContent() async throws {
        let router = try RouterFixture.router()
        // myapp://feed/:id is redirected to myapp://moments/{id}: the app's feed page is dropped.
        let opening = await router.open("myapp://feed/7", content: "the app's feed page")
        #expect(opening.page?.name == "moments")
        #expect(opening.page?.content is TestPage)
    }

    @Test func appMadeContentIsRejectedLikeAnyOpen() async throws {
        let router = try RouterFixture.router()
        let opening = await router.open("myapp://user/settings", content: "settings", source: .push)
        #expect(opening.error?.code == .rejected)
        #expect(router.pages.isEmpty)
    }
}
