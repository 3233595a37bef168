import Junction
import Testing

/// Results from pages on other stacks: a Flutter or H5 page a dispatcher opened returns
/// its result to its opener exactly once, like a native page.
@MainActor
@Suite struct RouterPagesElsewhereTests {
    /// A router whose `flutter` dispatcher opens its pages on the Flutter stack, keeping
    /// their ids as the Flutter side would.
    static func router(opened: FlutterStack) throws -> Router {
        let router = try RouterFixture.router()
        router.register(dispatcher: "flutter") { handOver in
            opened.ids.append(handOver.id)
            return .openedElsewhere
        }
        return router
    }

    /// The page ids the Flutter side was given, in order.
    final class FlutterStack {
        var ids: [PageID] = []
    }

    @Test func theResultReachesTheOpenerOnceWhenTheOtherStackFinishesThePage() async throws {
        let flutter = FlutterStack()
        let router = try Self.router(opened: flutter)
        await router.open("myapp://home")
        let log = ResultLog()
        let opening = await router.open("flutter://coupons/pick", onResult: log.callback("coupon picker"))
        #expect(opening.summary == "handed over to flutter")
        #expect(router.pages.map(\.name) == ["home"])
        #expect(log.lines.isEmpty)
        let id = try #require(flutter.ids.first)
        #expect(router.pagesElsewhere == [id])
        #expect(router.finish(id, with: .ok("SAVE10")))
        #expect(
            log.entries.map { "\($0.opener): \($0.result.code) \($0.result.data as? String ?? "-")" } == [
                "coupon picker: ok SAVE10"
            ])
        #expect(!router.finish(id, with: .ok("again")))
        #expect(!router.cancelPageElsewhere(id))
        #expect(log.count("coupon picker") == 1)
        #expect(router.pagesElsewhere.isEmpty)
    }

    @Test func aPageClosedWithoutAResultIsCancelled() async throws {
        let flutter = FlutterStack()
        let router = try Self.router(opened: flutter)
        let log = ResultLog()
        await router.open("flutter://coupons/pick", onResult: log.callback("picker"))
        #expect(router.cancelPageElsewhere(try #require(flutter.ids.first)))
        #expect(log.lines == ["picker: cancelled"])
    }

    @Test func idsOfPagesElsewhereNeverMeetIdsOfPagesOnTheStack() async throws {
        let flutter = FlutterStack()
        let router = try Self.router(opened: flutter)
        let home = try #require(await router.open("myapp://home").page)
        await router.open("flutter://a")
        let moments = try #require(await router.open("myapp://moments/1").page)
        #expect(Set([home.id, moments.id] + flutter.ids).count == 3)
        // Finishing the Flutter page leaves the native stack alone.
        #expect(router.finish(try #require(flutter.ids.first), with: .ok()))
        #expect(router.pages.map(\.id) == [home.id, moments.id])
    }

    @Test func aWebContainerThatNeverReportsCannotHoldOpenersWithoutEnd() async throws {
        let flutter = FlutterStack()
        let router = try Self.router(opened: flutter)
        let log = ResultLog()
        for index in 0...Router.maximumPagesElsewhere {
            await router.open("flutter://page/\(index)", onResult: log.callback("page \(index)"))
        }
        #expect(router.pagesElsewhere.count == Router.maximumPagesElsewhere)
        #expect(log.lines == ["page 0: cancelled"])
        #expect(router.pagesElsewhere.first == flutter.ids[1])
    }

    @Test func pageForRefusesAPageOnAnotherStackButItsResultStillArrives() async throws {
        let flutter = FlutterStack()
        let router = try Self.router(opened: flutter)
        let log = ResultLog()
        await #expect(throws: RouterError.self) {
            _ = try await router.page(for: "flutter://coupons", onResult: log.callback("coupons"))
        }
        router.finish(try #require(flutter.ids.first), with: .ok())
        #expect(log.lines == ["coupons: ok"])
    }
}
