import Junction
import Testing

/// Links before the app is ready: opens that arrive before `ready()` are held in order,
/// decided under the context `ready()` finds, and given up after their deadline.
@MainActor
@Suite struct RouterReadinessTests {
    /// Held opens wait this long here: the whole suite, run in parallel on two cores, can keep
    /// the main actor busy for more than the default 10 s, and only the deadline test is
    /// about expiry.
    static let patience: Duration = .seconds(3_600)

    /// Starts `open(url)` without waiting for it, and returns once the router holds it.
    func startHeld(_ router: Router, _ url: String, source: RequestSource = .push, log: ResultLog? = nil)
        async -> Task<Opening, Never>
    {
        let before = router.heldURLs.count
        let task = Task { await router.open(url, source: source, onResult: log?.callback(url)) }
        // A sleep, not a yield: a yielding main actor may run this loop again before the
        // open's task, and under load the wait became a spin that never ended.
        while router.heldURLs.count == before { try? await Task.sleep(for: .milliseconds(1)) }
        return task
    }

    @Test func heldLinksAreDecidedInOrderUnderTheContextReadyFinds() async throws {
        let router = try RouterFixture.router(context: ContextSnapshot(["hour": 12]))  // nobody logged in yet
        router.holdUntilReady(deadline: Self.patience)
        #expect(!router.isReady)
        let checkout = await startHeld(router, "myapp://checkout")
        let moments = await startHeld(router, "myapp://moments/3")
        let profile = await startHeld(router, "myapp://user/7")
        #expect(router.heldURLs == ["myapp://checkout", "myapp://moments/3", "myapp://user/7"])
        #expect(router.pages.isEmpty)
        router.context = ContextSnapshot(["user": ["id": 1], "app_version": "5.2.0", "hour": 12])
        router.ready()
        #expect(await checkout.value.summary == "opened checkout #1")
        #expect(await moments.value.summary == "opened moments #2")
        #expect(await profile.value.summary == "opened user.profile #3")
        await router.settle()
        #expect(router.isReady)
        #expect(router.heldURLs.isEmpty)
        #expect(router.pages.map(\.name) == ["checkout", "moments", "user.profile"])
    }

    @Test func anOpenArrivingWhileHeldOnesAreCarriedOutWaitsBehindThem() async throws {
        let router = try RouterFixture.router()
        router.holdUntilReady(deadline: Self.patience)
        let first = await startHeld(router, "myapp://home", source: .internal)
        router.ready()
        let second = await router.open("myapp://moments/1")
        #expect(await first.value.summary == "opened home #1")
        #expect(second.summary == "opened moments #2")
    }

    @Test func anOpenHeldPastItsDeadlineFailsAndItsOpenerHearsOfIt() async throws {
        let router = try RouterFixture.router()
        router.holdUntilReady(deadline: .milliseconds(30))
        let log = ResultLog()
        let opening = await router.open("myapp://moments/1", onResult: log.callback("moments"))
        #expect(opening.error?.code == .notReady)
        #expect(log.lines == ["moments: failed"])
        #expect(router.heldURLs.isEmpty)
        router.ready()
        await router.settle()
        #expect(router.isReady)
        #expect(await router.open("myapp://moments/1").summary == "opened moments #1")
    }

    @Test func aFloodOfLinksAtLaunchCannotQueueWithoutEnd() async throws {
        let router = try RouterFixture.router()
        router.holdUntilReady(deadline: Self.patience)
        var tasks: [Task<Opening, Never>] = []
        for index in 0..<Router.maximumHeldOpens { tasks.append(await startHeld(router, "myapp://moments/\(index)")) }
        let refused = await router.open("myapp://moments/999", source: .push)
        #expect(refused.error?.code == .notReady)
        router.ready()
        for task in tasks { #expect(await task.value.page?.name == "moments") }
        #expect(router.pages.count == Router.maximumHeldOpens)
    }

    @Test func aRouterIsReadyUnlessToldToHold() async throws {
        let router = try RouterFixture.router()
        #expect(router.isReady)
        router.ready()  // nothing held: nothing happens
        #expect(await router.open("myapp://home").summary == "opened home #1")
    }
}
