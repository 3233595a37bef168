import Junction
import JunctionAuthoring
import JunctionSwiftUI
import JunctionTestSupport
import Observation
import Testing

/// The SwiftUI navigation model as the router's presenter: its state follows every
/// transition, observers hear each change, what the user does through the bindings is
/// reconciled into the router's model with results delivered once, and with an animating
/// `animate` the router waits for each change before the next.
@MainActor
@Suite struct NavigationModelTests {
    static let example = CLIPaths.repositoryRoot + "/rules/example"
    static let member = ContextSnapshot([
        "user": ["id": 1], "app_version": "5.2.0", "hour": 12, "flags": ["live_disabled": false],
    ])

    final class Content {}

    static func router(_ model: NavigationModel) throws -> Router {
        let router = try Router(bundle: RuleBundle.load(directory: example), presenter: model, context: member)
        for target in ["home", "moments", "login", "checkout", "address.picker", "video.capture", "orders"] {
            router.register(page: target) { _ in Content() }
        }
        model.router = router
        return router
    }

    /// Whether reading `read` and then running `change` notifies an observer.
    static func notifies(_ read: @escaping () -> Void, when change: () async -> Void) async -> Bool {
        let heard = Flag()
        withObservationTracking(read) { heard.value = true }
        await change()
        return heard.value
    }

    final class Flag: @unchecked Sendable { var value = false }

    @Test func followsTheRoutersStackAndNotifiesObservers() async throws {
        let model = NavigationModel()
        let router = try Self.router(model)
        await router.open("myapp://home")
        #expect(await Self.notifies({ _ = model.path }, when: { await router.open("myapp://moments/1") }))
        await router.open("myapp://moments/2")
        #expect(model.visible == router.pages.map(\.id))
        #expect(model.tabs[0].root == router.pages[0].id)
        #expect(model.path == Array(router.pages.dropFirst().map(\.id)))
        // A sheet, and a page pushed inside it.
        #expect(await Self.notifies({ _ = model.sheets }, when: { await router.open("myapp://home", style: .present) }))
        await router.open("myapp://moments/3")
        #expect(model.sheets.count == 1 && model.sheetPath(0).count == 1)
        #expect(model.visible == router.pages.map(\.id))
        router.back(count: 2)
        await router.screenSettled()
        #expect(model.sheets.isEmpty)
        #expect(model.visible == router.pages.map(\.id))
    }

    @Test func theUsersBackThroughThePathBindingIsReconciledOnce() async throws {
        let model = NavigationModel()
        let router = try Self.router(model)
        var results: [String] = []
        await router.open("myapp://home")
        await router.open("myapp://moments/1") { results.append("1: \($0.code)") }
        await router.open("myapp://moments/2") { results.append("2: \($0.code)") }
        // SwiftUI's NavigationStack pops two pages: it sets the path shorter.
        model.path = []
        await router.screenSettled()
        #expect(router.pages.map(\.name) == ["home"])
        #expect(results == ["2: cancelled", "1: cancelled"])
        #expect(model.visible == router.pages.map(\.id))
        // A path that is not a way back is not the user's to make: nothing changes.
        await router.open("myapp://moments/4")
        let before = model.path
        model.path = before + before
        #expect(model.path == before)
        #expect(model.visible == router.pages.map(\.id))
    }

    @Test func aSheetSwipedDownLeavesTheRoutersModel() async throws {
        let model = NavigationModel()
        let router = try Self.router(model)
        var results: [String] = []
        await router.open("myapp://home")
        await router.open("myapp://moments/1", style: .present) { results.append("sheet: \($0.code)") }
        await router.open("myapp://moments/2") { results.append("inside: \($0.code)") }
        model.sheetWasDismissed(0)
        await router.screenSettled()
        #expect(router.pages.map(\.name) == ["home"])
        #expect(results == ["inside: cancelled", "sheet: cancelled"])
        #expect(model.sheets.isEmpty && model.visible == router.pages.map(\.id))
    }

    @Test func tabsFollowAndATappedTabIsSelectedThroughTheRouter() async throws {
        let model = NavigationModel()
        let router = try Self.router(model)
        try await router.setTabs(["myapp://home", "myapp://orders"])
        #expect(model.tabs.count == 2)
        model.selectedTab = 1
        await router.screenSettled()
        #expect(router.selectedTab == 1 && model.selectedTab == 1)
        #expect(model.visible == router.pages.map(\.id))
    }

    @Test func anAnimatingModelGetsOneChangeAtATime() async throws {
        let model = NavigationModel()
        var running: (@MainActor () -> Void)?
        var overlaps = 0
        model.animate = { _, change, done in
            if running != nil { overlaps += 1 }
            change()
            running = done
        }
        let router = try Self.router(model)
        let opens = ["myapp://home", "myapp://moments/1", "myapp://moments/2"].map { url in
            Task { await router.open(url) }
        }
        // Decisions run off the main actor: wait for all three (not for a number of turns,
        // which a busy machine outlasts), two minutes at most.
        let deadline = ContinuousClock.now + .seconds(120)
        while router.pages.count < 3 || running == nil, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        #expect(model.visible.count == 1)  // the first change runs; the others wait for it
        while !router.isScreenSettled {
            let done = running
            running = nil
            done?()
            for _ in 0..<20 { await Task.yield() }
        }
        for open in opens { _ = await open.value }
        #expect(overlaps == 0)
        #expect(model.visible == router.pages.map(\.id))
        #expect(model.visible.count == 3)
    }
}
