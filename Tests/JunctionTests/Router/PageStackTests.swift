import Junction
import Testing

/// The page stack: push, present, replace, root, tabs, every way back — and each opener's
/// result, exactly once, when its page is removed.
@MainActor
@Suite struct PageStackTests {
    /// Opens `urls` in order with their styles, each opener named after its URL's route.
    private func build(_ opens: [(String, PresentationStyle)]) async throws -> (Router, HeadlessPresenter, ResultLog) {
        let presenter = HeadlessPresenter()
        let router = try RouterFixture.router(presenter: presenter)
        let log = ResultLog()
        for (url, style) in opens {
            let opening = await router.open(url, style: style, onResult: log.callback(url))
            #expect(opening.page != nil, "\(url): \(opening.summary)")
        }
        return (router, presenter, log)
    }

    static let home = ("myapp://home", PresentationStyle.push)
    static let moments = ("myapp://moments/7", PresentationStyle.push)
    static let capture = ("myapp://video/capture", PresentationStyle.push)
    static let edit = ("myapp://video/edit/123e4567-e89b-12d3-a456-426614174000", PresentationStyle.push)
    static let publish = ("myapp://video/publish/123e4567-e89b-12d3-a456-426614174000", PresentationStyle.push)
    static let picker = ("myapp://address/pick", PresentationStyle.present)

    @Test func theFirstPageIsTheRootAndPushesStackOnIt() async throws {
        let (router, presenter, _) = try await build([Self.home, Self.moments, Self.capture])
        #expect(RouterFixture.names(router) == ["home", "moments", "video.capture"])
        #expect(router.pages.map(\.presentation) == [.root, .pushed, .pushed])
        #expect(presenter.log == ["root of tab 0: home #1", "push moments #2", "push video.capture #3"])
        #expect(router.top?.name == "video.capture")
        #expect(router.contains("moments") && !router.contains("login"))
    }

    @Test func backRemovesTheTopAndItsOpenerGetsCancelled() async throws {
        let (router, presenter, log) = try await build([Self.home, Self.moments])
        #expect(router.back()?.name == "home")
        #expect(log.lines == ["myapp://moments/7: cancelled"])
        #expect(presenter.log.last == "pop to home #1, removing moments #2")
        // A root cannot be gone back from: nothing changes.
        #expect(router.back() == nil)
        #expect(RouterFixture.names(router) == ["home"])
        #expect(log.entries.count == 1)
    }

    @Test func backToRemovesSeveralPagesAndEachOpenerHearsOnceTopFirst() async throws {
        let (router, presenter, log) = try await build([Self.home, Self.moments, Self.capture, Self.edit, Self.publish])
        let publish = try #require(router.top)
        router.setResult(.ok("posted"), for: publish.id)
        #expect(router.back(to: "moments")?.name == "moments")
        #expect(
            log.lines == [
                "\(Self.publish.0): ok", "\(Self.edit.0): cancelled", "\(Self.capture.0): cancelled",
            ])
        #expect(log.entries.first?.result.data as? String == "posted")
        #expect(presenter.log.last == "pop to moments #2, removing video.publish #5, video.edit #4, video.capture #3")
        // Removing again delivers nothing more.
        router.back()
        #expect(log.lines.count == 4 && log.count(Self.publish.0) == 1)
    }

    @Test func backBeforeReachesThePageBeforeTheNamedOne() async throws {
        let (router, _, log) = try await build([Self.home, Self.moments, Self.capture, Self.edit, Self.publish])
        #expect(router.back(before: "video.capture")?.name == "moments")
        #expect(RouterFixture.names(router) == ["home", "moments"])
        #expect(log.entries.count == 3)
        #expect(router.back(before: "home") == nil)
        #expect(router.back(to: "nowhere") == nil)
        #expect(RouterFixture.names(router) == ["home", "moments"])
    }

    @Test(arguments: [(1, "video.capture"), (3, "home")] as [(Int, String?)])
    func backCountRemovesThatManyPages(count: Int, reached: String?) async throws {
        let (router, _, log) = try await build([Self.home, Self.moments, Self.capture, Self.edit])
        #expect(router.back(count: count)?.name == reached)
        #expect(log.entries.count == count)
    }

    @Test func backCountBeyondTheRootChangesNothing() async throws {
        let (router, presenter, log) = try await build([Self.home, Self.moments])
        let before = presenter.log
        #expect(router.back(count: 2) == nil)
        #expect(RouterFixture.names(router) == ["home", "moments"])
        #expect(presenter.log == before && log.entries.isEmpty)
    }

    @Test func presentedPagesStackAsModalsAndPushesGoInsideTheTopOne() async throws {
        let (router, presenter, _) = try await build([
            Self.home, Self.picker, Self.moments, ("myapp://login", .present),
        ])
        #expect(router.pages.map(\.presentation) == [.root, .presented, .pushed, .presented])
        #expect(
            presenter.log == [
                "root of tab 0: home #1", "present address.picker #2", "push moments #3", "present login #4",
            ])
        // Back from a modal's root dismisses it; back inside a modal pops.
        #expect(router.back()?.name == "moments")
        #expect(presenter.log.last == "dismiss login #4, removing login #4")
        #expect(router.back()?.name == "address.picker")
        #expect(presenter.log.last == "pop to address.picker #2, removing moments #3")
    }

    @Test func backToAPageUnderModalsDismissesThemAll() async throws {
        let (router, presenter, log) = try await build([
            Self.home, Self.moments, Self.picker, Self.capture, ("myapp://login", .present),
        ])
        #expect(router.back(to: "moments")?.name == "moments")
        #expect(
            presenter.log.last == "dismiss address.picker #3, removing login #5, video.capture #4, address.picker #3")
        #expect(
            log.lines == ["myapp://login: cancelled", "\(Self.capture.0): cancelled", "\(Self.picker.0): cancelled"])
        #expect(RouterFixture.names(router) == ["home", "moments"])
    }

    @Test func finishSetsTheResultAndRemovesThePageWithEverythingAboveIt() async throws {
        let (router, _, log) = try await build([Self.home, Self.picker, Self.moments])
        let picker = router.pages[1]
        #expect(router.finish(picker.id, with: .ok("1 Main St")))
        #expect(log.lines == ["myapp://moments/7: cancelled", "\(Self.picker.0): ok"])
        #expect(log.entries.last?.result.data as? String == "1 Main St")
        // A removed page cannot be finished again.
        #expect(!router.finish(picker.id, with: .ok("again")))
        #expect(log.entries.count == 2)
        // The only page of an app without tabs can be finished (a tab's root cannot).
        #expect(router.finish(router.pages[0].id, with: .ok()))
        #expect(router.pages.isEmpty && log.lines.last == "\(Self.home.0): ok")
    }

    @Test func replaceRemovesTheTopAndItsOpenerHears() async throws {
        let (router, presenter, log) = try await build([Self.home, Self.capture, (Self.edit.0, .replace)])
        #expect(RouterFixture.names(router) == ["home", "video.edit"])
        #expect(presenter.log.last == "replace video.capture #2 with video.edit #3")
        #expect(log.lines == ["\(Self.capture.0): cancelled"])
    }

    @Test func rootReplacesTheTabAndDismissesModals() async throws {
        let (router, presenter, log) = try await build([Self.home, Self.moments, Self.picker, ("myapp://login", .root)])
        #expect(RouterFixture.names(router) == ["login"])
        #expect(presenter.log.last == "root of tab 0: login #4, removing address.picker #3, moments #2, home #1")
        #expect(
            log.lines == ["\(Self.picker.0): cancelled", "\(Self.moments.0): cancelled", "\(Self.home.0): cancelled"])
    }

    @Test func tabsKeepTheirOwnStacksAndSelectTabPassesParameters() async throws {
        let presenter = HeadlessPresenter()
        let router = try RouterFixture.router(presenter: presenter)
        let roots = try await router.setTabs(["myapp://home", "myapp://moments", "myapp://user/1"])
        #expect(roots.map(\.name) == ["home", "moments", "user.profile"])
        await router.open("myapp://video/capture")
        await router.open("myapp://address/pick", style: .present)
        let log = ResultLog()
        await router.open("myapp://login", onResult: log.callback("login"))
        #expect(router.selectTab(1, params: ["scroll_to": 3])?.name == "moments")
        // The modal (and the login pushed in it) is dismissed; tab 0 keeps its pushed page.
        #expect(log.lines == ["login: cancelled"])
        #expect(RouterFixture.names(router) == ["moments"])
        #expect(router.tabs[1].tabParams?["scroll_to"] == .int(3))
        #expect(
            presenter.log.suffix(2) == [
                "dismiss address.picker #5, removing login #6, address.picker #5",
                "select tab 1 (moments #2) {\"scroll_to\":3}",
            ])
        #expect(router.selectTab(0)?.name == "home")
        #expect(RouterFixture.names(router) == ["home", "video.capture"])
        #expect(router.contains("user.profile"))
        #expect(router.selectTab(7) == nil && router.selectedTab == 0)
        #expect(!router.finish(router.tabs[1].id, with: .ok()))
        #expect(router.tabs.count == 3)
    }

    @Test func tabsMustBePages() async throws {
        let router = try RouterFixture.router()
        await #expect(throws: RouterError.self) { try await router.setTabs(["myapp://home", "myapp://action/share"]) }
        #expect(router.tabs.isEmpty)
    }

    @Test func aPageTheScreenRemovedItselfLeavesTheModelWithoutAskingThePresenter() async throws {
        let (router, presenter, log) = try await build([Self.home, Self.moments, Self.picker, Self.capture])
        let before = presenter.log
        let picker = router.pages[2]
        router.setResult(.ok("swiped"), for: picker.id)
        #expect(router.pageWasRemoved(picker.id))  // an interactive dismiss of the picker's modal
        #expect(presenter.log == before)
        #expect(log.lines == ["\(Self.capture.0): cancelled", "\(Self.picker.0): ok"])
        #expect(RouterFixture.names(router) == ["home", "moments"])
        #expect(!router.pageWasRemoved(picker.id))
        #expect(!router.pageWasRemoved(router.pages[0].id))
    }

    @Test func aResultIsNeverDeliveredOnDeinit() async throws {
        let log = ResultLog()
        do {
            let router = try RouterFixture.router()
            await router.open("myapp://home", onResult: log.callback("home"))
            await router.open("myapp://moments/7", onResult: log.callback("moments"))
        }
        #expect(log.entries.isEmpty)
    }
}
