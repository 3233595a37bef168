import Junction
import Testing

/// The presenter contract under a UI that animates: one transition at a time, opens queued
/// in order, a resume after a gate in one transition, the user's own changes reconciled,
/// and every opener's result delivered once — with the screen and the model agreeing
/// whenever nothing is left to show.
@MainActor
@Suite struct PresenterContractTests {
    static func router(_ presenter: AnimatingPresenter, context: ContextSnapshot? = nil) throws -> Router {
        let router =
            if let context { try RouterFixture.router(context: context, presenter: presenter) } else {
                try RouterFixture.router(presenter: presenter)
            }
        presenter.router = router
        return router
    }

    @Test func opensWaitForTheRunningTransitionAndQueueInOrder() async throws {
        let presenter = AnimatingPresenter()
        let router = try Self.router(presenter)
        let first = Task { await router.open("myapp://home") }
        let second = Task { await router.open("myapp://moments/1") }
        let third = Task { await router.open("myapp://moments/2") }
        await MainActorWait.until { router.pages.count == 3 && presenter.inFlight != nil }
        // The model ran ahead; the screen has one transition in flight and none started over it.
        #expect(router.pages.map(\.name) == ["home", "moments", "moments"])
        #expect(presenter.shown == 0 && presenter.inFlight != nil)
        #expect(!router.isScreenSettled)
        await presenter.settle(router)
        #expect(presenter.overlaps == 0)
        #expect(presenter.shown == 3)
        #expect(presenter.screen.visible == router.pages.map(\.id))
        // Each open returned once its page was on screen.
        #expect(await first.value.summary == "opened home #1")
        #expect(await second.value.summary == "opened moments #2")
        #expect(await third.value.summary == "opened moments #3")
    }

    @Test func opensAreCarriedOutInTheOrderMadeWhateverTheirDecisionsTake() async throws {
        let router = try RouterFixture.router()
        // The first open's decision waits on a slow service; the second's does not.
        try router.add(
            AsyncInterceptor("slow-moments", scope: .route("moments")) { request, _ in
                if request.url.hasSuffix("/1") { try? await Task.sleep(for: .milliseconds(50)) }
                return .continue
            })
        await router.open("myapp://home")
        let first = Task { await router.open("myapp://moments/1") }
        let second = Task { await router.open("myapp://moments/2") }
        #expect(await first.value.summary == "opened moments #2")
        #expect(await second.value.summary == "opened moments #3")
        #expect(router.pages.map(\.url) == ["myapp://home", "myapp://moments/1", "myapp://moments/2"])
    }

    @Test func aGatedOpenIsAwaitedToTheResumedPageInOneTransition() async throws {
        let presenter = AnimatingPresenter()
        let router = try Self.router(presenter, context: RouterGateTests.guest)
        let home = Task { await router.open("myapp://home") }
        await presenter.settle(router)
        _ = await home.value
        let opening = Task { await router.open("myapp://moments/7", source: .push) }
        await presenter.settle(router)
        let gated = await opening.value
        let login = try #require(gated.page)
        let outcome = Task { await router.outcome(of: gated) }
        router.context = RouterGateTests.member
        #expect(router.finish(login.id, with: .ok()))
        await presenter.settle(router)
        #expect(await outcome.value.summary == "opened moments #3")
        #expect(presenter.shown == 3)  // home, login, then login replaced by moments
        #expect(presenter.screen.visible == router.pages.map(\.id))
        #expect(router.pages.map(\.name) == ["home", "moments"])
    }

    @Test func aGateLeftWithoutSuccessEndsTheAwaitedOpenCancelled() async throws {
        let router = try RouterFixture.router(context: RouterGateTests.guest)
        await router.open("myapp://home")
        let gated = await router.open("myapp://checkout")
        router.back()
        let outcome = await router.outcome(of: gated)
        #expect(outcome.error?.code == .cancelled)
        #expect(outcome.error?.message == "myapp://login ended cancelled")
    }

    @Test func aSwipeDuringAnimationIsReconciledAndKeepsPagesNotYetShown() async throws {
        let presenter = AnimatingPresenter()
        let router = try Self.router(presenter)
        let results = PageStackModelTests.Box<[String]>([])
        for url in ["myapp://home", "myapp://moments/1", "myapp://moments/2"] {
            let open = Task { await router.open(url) { results.value.append("\(url): \($0.code)") } }
            await presenter.settle(router)
            _ = await open.value
        }
        // moments/3 is being pushed and moments/4 waits behind it when the user swipes back
        // from moments/2: the swipe lands as the animation ends, taking moments/2 and
        // moments/3 (on screen by then); moments/4, never shown, stays and is pushed.
        let third = Task { await router.open("myapp://moments/3") { results.value.append("moments/3: \($0.code)") } }
        let fourth = Task { await router.open("myapp://moments/4") }
        await MainActorWait.until { router.pages.count == 5 && presenter.inFlight != nil }
        #expect(presenter.inFlight != nil)
        #expect(router.pages.map(\.name) == ["home", "moments", "moments", "moments", "moments"])
        presenter.swipeBack(fromVisible: 2)
        await presenter.settle(router)
        _ = await third.value
        #expect(await fourth.value.summary == "opened moments #5")
        #expect(results.value.sorted() == ["moments/3: cancelled", "myapp://moments/2: cancelled"])
        #expect(router.pages.map(\.id.description) == ["#1", "#2", "#5"])
        #expect(presenter.screen.visible == router.pages.map(\.id))
        #expect(presenter.overlaps == 0)
    }

    @Test func aLegacyPushIsAdoptedAndBackGoesOverIt() async throws {
        let presenter = AnimatingPresenter()
        let router = try Self.router(presenter)
        let home = Task { await router.open("myapp://home") }
        await presenter.settle(router)
        _ = await home.value
        presenter.legacyPush(named: "legacy.settings")
        #expect(router.pages.map(\.name) == ["home", "legacy.settings"])
        let adopted = try #require(router.top)
        #expect(adopted.content(as: LegacyScreen.self)?.name == "legacy.settings")
        #expect(adopted.content(as: String.self) == nil)
        #expect(router.page(showing: adopted.content(as: LegacyScreen.self)!)?.id == adopted.id)
        router.back()
        await presenter.settle(router)
        #expect(router.pages.map(\.name) == ["home"])
        #expect(presenter.screen.visible == router.pages.map(\.id))
    }

    static let urls = [
        "myapp://home", "myapp://moments/1", "myapp://video/capture", "myapp://address/pick", "myapp://login",
        "myapp://user/5", "myapp://checkout", "myapp://order/AB123456", "myapp://orders",
        "myapp://back?count=1", "myapp://moments/9",
    ]

    /// Seeded sessions: opens interleaved without waiting, animations ending in random
    /// order with the other events, swipes back and legacy pushes during animations, backs
    /// and finishes. Whenever nothing is left to show, the screen is the model; no
    /// transition ever starts over another; every opener gets one result, when its page
    /// has left.
    @Test(arguments: 0..<16)
    func seededSessionsKeepTheScreenAndTheModelTogether(seed: Int) async throws {
        var random = PageStackModelTests.Generator(state: UInt64(seed) &* 104_729 &+ 7)
        let presenter = AnimatingPresenter()
        let router = try Self.router(presenter)
        let results = PageStackModelTests.Box<[Int: Int]>([:])
        var opens: [Task<Opening, Never>] = []

        for step in 0..<80 {
            switch random.next(10) {
            case 0...2:
                let number = opens.count
                let url = Self.urls[random.next(Self.urls.count)]
                opens.append(Task { await router.open(url) { _ in results.value[number, default: 0] += 1 } })
            case 3...5:
                presenter.completeAnimation()
            case 6:
                presenter.swipeBack(fromVisible: random.next(max(1, presenter.screen.visible.count)))
            case 7:
                presenter.legacyPush(named: "legacy.\(step)")
            case 8:
                router.back()
            default:
                let visible = router.pages
                if let page = visible.randomElement(using: &random) { router.finish(page.id, with: .ok(step)) }
            }
            for _ in 0..<random.next(8) { await Task.yield() }
            if presenter.inFlight == nil && router.isScreenSettled {
                #expect(presenter.screen.visible == router.pages.map(\.id), "seed \(seed), step \(step)")
            }
        }
        await presenter.settle(router)
        var openings: [Opening] = []
        for open in opens { openings.append(await open.value) }
        await presenter.settle(router)

        #expect(presenter.overlaps == 0, "seed \(seed)")
        #expect(presenter.screen.visible == router.pages.map(\.id), "seed \(seed)")
        let onStack = Set(router.pages.map(\.id))
        for (number, opening) in openings.enumerated() {
            let received = results.value[number, default: 0]
            switch opening {
            case .opened(let page) where onStack.contains(page.id):
                #expect(received == 0, "seed \(seed): open \(number) is still on the stack")
            case .gated, .reused:
                #expect(received <= 1, "seed \(seed): open \(number)")
            default:
                #expect(received == 1, "seed \(seed): open \(number) \(opening.summary)")
            }
        }
    }
}
