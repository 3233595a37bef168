import Foundation
import Junction
import JunctionCore
import Testing

/// `open`: every outcome of a decision reaches the stack, a dispatcher or the opener.
@MainActor
@Suite struct RouterOpeningTests {
    /// URL (with source and context) → what opening it does and the opener's result.
    struct Case: Sendable, CustomTestStringConvertible {
        let url: String
        var source: RequestSource = .internal
        var context: [String: RuleValue]? = nil
        let opening: String
        let result: String?
        var testDescription: String { url }
    }

    nonisolated static let member: [String: RuleValue] = [
        "user": ["id": 1], "app_version": "5.2.0", "hour": 12, "flags": ["live_disabled": false],
    ]

    nonisolated static let cases: [Case] = [
        Case(url: "myapp://user/42", opening: "opened user.profile #1", result: nil),
        Case(url: "myapp://feed/7?from=share", opening: "opened moments #1", result: nil),
        Case(
            url: "myapp://moments/7", source: .push, context: ["app_version": "5.2.0"],
            opening: "gated by myapp://login: opened login #1", result: nil),
        Case(
            url: "myapp://user/settings", source: .push,
            opening:
                "failed: rejected: rejected (403): route \"user.settings\" is not exported, so a request from \"push\" may not open it (only internal ones may); mark it exported: true in the route table to allow it",
            result: "rejected"),
        Case(
            url: "myapp://order/AB123456", context: ["user": ["id": 1], "app_version": "5.3.0"],
            opening: "handed over to https as https #1", result: nil),
        Case(
            url: "myapp://action/experiment/new-feed", context: ["device_id": "d3"],
            opening: #"answered {"experiment":"new-feed","variant":"B"}"#, result: "ok"),
        Case(url: "myapp://newfeature/x", source: .push, opening: "opened upgrade #1", result: nil),
        Case(url: "flutter://app/profile", opening: "handed over to flutter as flutter #1", result: nil),
        Case(
            url: "tp://pay?amount=1",
            opening:
                "failed: unknown route: no route matches it, the bundle's fallback rules let it pass, no dispatcher is "
                + "registered for tp, no undefinedRouteHandler is set — add a route, a fallback, a dispatcher for tp "
                + "or an undefinedRouteHandler",
            result: "unmatched"),
        Case(
            url: "myapp://live/88", context: ["user": ["id": 1], "flags": ["live_disabled": true]],
            opening: "opened live.web #1", result: nil),
        Case(
            url: "myapp://action/share?text=hi", opening: #"answered {"channel":"system","shared":"hi"}"#, result: "ok"),
        Case(
            url: "myapp://user/%zz",
            opening:
                #"failed: rejected: rejected (400): the URL "myapp://user/%zz" does not parse: invalid percent-escape "%zz" at offset 13 in "myapp://user/%zz""#,
            result: "rejected"),
    ]

    @Test(arguments: cases)
    func opensWhatTheDecisionSays(_ testCase: Case) async throws {
        let router = try RouterFixture.router(context: ContextSnapshot(testCase.context ?? Self.member))
        let log = ResultLog()
        let opening = await router.open(testCase.url, source: testCase.source, onResult: log.callback("opener"))
        #expect(opening.summary == testCase.opening)
        #expect(log.lines == (testCase.result.map { ["opener: \($0)"] } ?? []))
    }

    @Test func aPageGetsItsParametersTypedByTheRouteTable() async throws {
        let router = try RouterFixture.router()
        let opening = await router.open("myapp://user/42?tab=likes", params: ["from": "push"])
        let page = try #require(opening.page)
        #expect(page.params.int("id") == 42)
        #expect(page.params.string("tab") == "likes")
        #expect(page.params.string("from") == "push")
        let request = try #require(page.content as? TestPage).request
        #expect(request.route.name == "user.profile" && request.style == .push && request.source == .internal)
    }

    @Test func objectsReachTheTargetButNotRules() async throws {
        struct Draft: Sendable, Equatable { let title: String }
        let router = try RouterFixture.router()
        let seen = SeenParams()
        try router.add(
            SwiftInterceptor("spy", scope: .route("video.edit")) { request, _ in
                seen.record(Array(request.params.keys))
                return .continue
            })
        let draftID = "123e4567-e89b-12d3-a456-426614174000"
        let opening = await router.open(
            "myapp://video/edit/\(draftID)", params: ["draft_model": Draft(title: "Cat"), "note": "n"])
        let page = try #require(opening.page)
        #expect(page.params.object("draft_model", as: Draft.self) == Draft(title: "Cat"))
        #expect(page.params.string("draft") == draftID)
        #expect(seen.names.sorted() == ["draft", "note"])
    }

    @Test(
        arguments: [
            (
                "myapp://web", [String: any Sendable](), "missing parameter",
                #"route "web" requires parameter "url" (string); pass it in the URL or in params"#
            ),
            (
                "myapp://user/42?tab=x", ["tab": ["a"]], "wrong parameter type",
                #"parameter "tab" of route "user.profile" must be string, got ["a"]"#
            ),
            (
                "myapp://moments?id=seven", [:], "wrong parameter type",
                #"parameter "id" of route "moments" must be int, got "seven""#
            ),
            (
                "myapp://moments", ["id": "x7"], "wrong parameter type",
                #"parameter "id" of route "moments" must be int, got "x7""#
            ),
        ] as [(String, [String: any Sendable], String, String)])
    func aBadParameterIsAnErrorTheCallerSees(url: String, params: [String: any Sendable], code: String, message: String)
        async throws
    {
        let router = try RouterFixture.router()
        let log = ResultLog()
        let opening = await router.open(url, params: params, onResult: log.callback("opener"))
        let error = try #require(opening.error)
        #expect(error.code.description == code)
        #expect(error.message == message)
        #expect(log.lines == ["opener: failed"])
        #expect(router.pages.isEmpty)
    }

    @Test func aCallerStringConvertsToTheDeclaredType() async throws {
        let router = try RouterFixture.router()
        let page = try #require(await router.open("myapp://moments", params: ["id": "7"]).page)
        #expect(page.params["id"] == .int(7))
    }

    @Test func aTargetWithoutFactoryOrTaskIsNamed() async throws {
        let router = try RouterFixture.router()
        router.removePage("ProfilePage")
        let opening = await router.open("myapp://user/42")
        #expect(opening.error?.code == .noTarget)
        #expect(
            opening.error?.message
                == #"route "user.profile" leads to target "ProfilePage", which has no page factory or task registered"#)
    }

    @Test func aThrowingFactoryFailsTheOpenAndLeavesTheStack() async throws {
        struct Broken: Error {}
        let router = try RouterFixture.router()
        await router.open("myapp://home")
        router.register(page: "ProfilePage") { _ in throw Broken() }
        let log = ResultLog()
        let opening = await router.open("myapp://user/42", onResult: log.callback("opener"))
        #expect(opening.error?.code == .targetFailed)
        #expect(opening.error?.underlying is Broken)
        #expect(RouterFixture.names(router) == ["home"])
        #expect(log.lines == ["opener: failed"])
    }

    @Test func theUndefinedRouteHandlerRunsAfterTheBundleFallbacksOnce() async throws {
        let router = try RouterFixture.router()
        var asked: [String] = []
        router.undefinedRouteHandler = { decision in
            asked.append(decision.request.url)
            return decision.request.url == "other://x" ? "myapp://home" : "other://still-nothing"
        }
        // myapp:// URLs are taken by the bundle's upgrade fallback first.
        #expect(await router.open("myapp://nothing/here").summary == "opened upgrade #1")
        #expect(await router.open("other://x").summary == "opened home #2")
        #expect(await router.open("other://y").error?.code == .unknownRoute)
        #expect(asked == ["other://x", "other://y"])
    }

    @Test func theUndefinedRouteHandlersURLKeepsTheCallersSource() async throws {
        // An attack: a push link to an unknown scheme, which a naive handler maps onto an app
        // URL. The replacement is still a push request, so a route that is not exported stays shut.
        let router = try RouterFixture.router()
        router.undefinedRouteHandler = { decision in
            decision.request.url.replacingOccurrences(of: "legacy://", with: "myapp://")
        }
        let opening = await router.open("legacy://user/settings", source: .push)
        #expect(opening.error?.rejection?.cause == .notExported)
        #expect(router.pages.isEmpty)
        #expect(await router.open("legacy://user/settings").page?.name == "user.settings")
    }

    @Test func canOpenAsksTheDecisionAndTheRegistry() throws {
        let router = try RouterFixture.router()
        #expect(router.canOpen("myapp://user/42"))
        router.context = ContextSnapshot(["device_id": "d1"])
        #expect(router.canOpen("myapp://action/experiment/x"))
        #expect(router.canOpen("https://anything.example.com/x"))
        #expect(!router.canOpen("myapp://user/settings", source: .push))
        #expect(!router.canOpen("tp://x"))
        router.removePage("ProfilePage")
        #expect(!router.canOpen("myapp://user/42"))
        #expect(router.pages.isEmpty)
    }

    @Test func theRouteMetaChoosesThePresentationUnlessTheCallerDoes() async throws {
        let table = try RouteTable(routes: [
            Route(name: "home", pattern: "app://home"),
            Route(name: "sheet", pattern: "app://sheet", meta: ["presentation": "present"]),
        ])
        let router = try Router(routes: table)
        router.register(page: "home") { TestPage($0) }
        router.register(page: "sheet") { TestPage($0) }
        await router.open("app://home")
        #expect(await router.open("app://sheet").page?.presentation == .presented)
        #expect(await router.open("app://sheet", style: .push).page?.presentation == .pushed)
    }

    @Test func animatedFalseInExtsReachesThePresenter() async throws {
        let presenter = HeadlessPresenter()
        let router = try RouterFixture.router(presenter: presenter)
        await router.open("myapp://home")
        await router.open("myapp://user/42", exts: ["animated": false])
        #expect(presenter.log == ["root of tab 0: home #1", "push user.profile #2 (not animated)"])
    }
}

/// Collects what an interceptor saw, across actors.
final class SeenParams: Sendable {
    private let seen = Locked<[String]>([])
    func record(_ names: [String]) { seen.withLock { $0 = names } }
    var names: [String] { seen.withLock { $0 } }
}
