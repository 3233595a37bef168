import Junction
import Testing

/// `didClose`: every page that leaves the stack is reported once, with its result and how
/// it left.
@MainActor
@Suite struct RouterClosingTests {
    /// One way to take pages off the stack, after opening home › moments › address picker.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let act: @MainActor @Sendable (Router) async throws -> Void
        /// `route: result reason`, in the order reported.
        let closings: [String]
        var testDescription: String { name }
    }

    nonisolated static let cases: [Case] = [
        Case(name: "back", act: { $0.back() }, closings: ["address.picker: cancelled popped"]),
        Case(
            name: "back(count: 2)", act: { $0.back(count: 2) },
            closings: ["address.picker: cancelled popped", "moments: cancelled popped"]),
        Case(
            name: "back(to:)", act: { $0.back(to: "home") },
            closings: ["address.picker: cancelled popped", "moments: cancelled popped"]),
        Case(
            name: "finish with a result",
            act: { router in router.finish(try #require(router.top).id, with: .ok("Beijing")) },
            closings: ["address.picker: ok popped"]),
        Case(
            name: "setResult, then a swipe back",
            act: { router in
                let top = try #require(router.top)
                router.setResult(.ok("Shanghai"), for: top.id)
                router.pageWasRemoved(top.id)
            },
            closings: ["address.picker: ok removedByScreen"]),
        Case(
            name: "replace", act: { await $0.open("myapp://moments/9", style: .replace) },
            closings: ["address.picker: cancelled replaced"]),
        Case(
            name: "root", act: { await $0.open("myapp://home", style: .root) },
            closings: ["address.picker: cancelled reset", "moments: cancelled reset", "home: cancelled reset"]),
        Case(
            name: "a modal dismissed by selecting a tab",
            act: { router in
                await router.open("myapp://video/capture", style: .present)
                router.selectTab(0)
            },
            closings: ["video.capture: cancelled dismissed"]),
        Case(
            name: "setTabs", act: { _ = try await $0.setTabs(["myapp://home"]) },
            closings: ["address.picker: cancelled reset", "moments: cancelled reset", "home: cancelled reset"]),
        Case(name: "push: nothing closes", act: { await $0.open("myapp://moments/3") }, closings: []),
    ]

    @Test(arguments: cases)
    func everyRemovalIsReportedOnceWithItsResultAndReason(_ test: Case) async throws {
        let router = try RouterFixture.router()
        await router.open("myapp://home")
        await router.open("myapp://moments/1")
        await router.open("myapp://address/pick")
        var closings: [String] = []
        router.didClose = { closings.append("\($0.page.name): \($0.result.code) \($0.reason)") }
        try await test.act(router)
        #expect(closings == test.closings)
    }

    @Test func theOpenerHasItsResultWhenDidCloseIsCalled() async throws {
        let router = try RouterFixture.router()
        await router.open("myapp://home")
        var events: [String] = []
        await router.open("myapp://address/pick") { events.append("opener: \($0.code)") }
        router.didClose = { events.append("didClose: \($0.result.code)") }
        router.finish(try #require(router.top).id, with: .ok("Hangzhou"))
        router.back()  // nothing left above the root: nothing more closes
        #expect(events == ["opener: ok", "didClose: ok"])
    }
}
