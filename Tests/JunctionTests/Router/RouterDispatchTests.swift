import Junction
import Testing

/// Schemes handed to dispatchers, presentation corner cases, and gates that do not resume.
@MainActor
@Suite struct RouterDispatchTests {
    struct Refused: Error {}

    @Test func aDispatcherThatHandlesOutsideTheStackAnswersAtOnce() async throws {
        let router = try RouterFixture.router()
        router.register(dispatcher: "flutter") { handOver in .handled("flutter took \(handOver.url)") }
        let log = ResultLog()
        let opening = await router.open("flutter://app/feed", onResult: log.callback("opener"))
        #expect(opening.summary == "handed over to flutter")
        #expect(log.lines == ["opener: ok"])
        #expect(log.entries[0].result.data as? String == "flutter took flutter://app/feed")
        #expect(router.pages.isEmpty)
    }

    @Test func aThrowingDispatcherFailsTheOpen() async throws {
        let router = try RouterFixture.router()
        router.register(dispatcher: "https") { _ in throw Refused() }
        let opening = await router.open("https://example.org/x")
        #expect(opening.error?.code == .targetFailed && opening.error?.underlying is Refused)
    }

    @Test func aHandOverWithoutItsDispatcherSaysWhichToRegister() async throws {
        let router = try RouterFixture.router()
        router.removeDispatcher("https")
        let opening = await router.open("https://example.org/x")
        #expect(opening.error?.code == .noDispatcher)
        #expect(
            opening.error?.message
                == #"the URL is handed to the https dispatcher, and none is registered; register(dispatcher: "https")"#)
    }

    @Test func anUnmatchedURLGoesToTheDispatcherOfItsScheme() async throws {
        let router = try RouterFixture.router()
        router.register(dispatcher: "wxmp") { handOver in .page("mini-program \(handOver.url)") }
        let opening = await router.open("wxmp://app123/pages/index?x=1")
        #expect(opening.summary == "handed over to wxmp as wxmp #1")
        #expect(router.top?.content as? String == "mini-program wxmp://app123/pages/index?x=1")
        #expect(router.canOpen("wxmp://anything"))
    }

    @Test(arguments: [PresentationStyle.present, .replace, .push, .root])
    func theFirstPageIsTheRootWhateverTheStyle(style: PresentationStyle) async throws {
        let router = try RouterFixture.router()
        let page = try #require(await router.open("myapp://home", style: style).page)
        #expect(page.presentation == .root)
        #expect(router.pages.count == 1)
    }

    @Test func aGateThatDoesNotResumeCancelsTheRequestEvenAfterSuccess() async throws {
        let table = try RouteTable(routes: [
            Route(name: "home", pattern: "app://home"),
            Route(name: "intro", pattern: "app://intro"),
            Route(name: "feature", pattern: "app://feature"),
        ])
        let router = try Router(routes: table)
        try router.add(
            SwiftInterceptor("intro-first", scope: .route("feature")) { _, _ in
                .gate(url: "app://intro", resume: false)
            })
        for target in ["home", "intro", "feature"] { router.register(page: target) { TestPage($0) } }
        await router.open("app://home")
        let log = ResultLog()
        await router.open("app://feature", onResult: log.callback("feature"))
        router.finish(try #require(router.top).id, with: .ok())
        await router.settle()
        #expect(log.lines == ["feature: cancelled"])
        #expect(log.entries[0].result.message == "app://intro ended ok; the gate does not resume")
        #expect(RouterFixture.names(router) == ["home"])
    }
}
