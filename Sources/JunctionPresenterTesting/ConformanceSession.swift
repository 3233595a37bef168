import Junction

/// One check of the suite: a router over the suite's routes, showing through a probe
/// in front of a fresh presenter, and the failures found.
@MainActor
final class ConformanceSession {
    let check: String
    let router: Router
    let probe: ConformanceProbe
    let timeout: Duration
    private(set) var failures: [PresenterConformance.Failure] = []
    private var opened = 0
    /// The most one turn of ``settle(after:)`` adds to a transition's waiting time.
    static let longestTurn = Duration.milliseconds(20)
    /// The transition being timed (by when it started), and how long it has been waited for.
    private var watched: ContinuousClock.Instant?
    private var waited = Duration.zero

    init?(
        check: String, subject: some InspectablePresenter, content: @escaping @MainActor (String, PageID) -> Any,
        timeout: Duration
    ) {
        var builder = RouteTableBuilder()
        for route in PresenterConformance.routes { builder.add(route) }
        guard let table = try? builder.build() else { return nil }
        probe = ConformanceProbe(subject)
        guard let router = try? Router(routes: table, presenter: probe) else { return nil }
        for route in PresenterConformance.routes {
            router.register(page: route.target) { request in content(request.route.name, request.id) }
        }
        self.router = router
        self.check = check
        self.timeout = timeout
    }

    func fail(_ message: String) {
        failures.append(PresenterConformance.Failure(check: check, message: message))
    }

    /// The next URL of `route`, numbered.
    func url(_ route: String) -> String {
        opened += 1
        return "conformance://\(route)/\(opened)"
    }

    /// Opens and waits for the screen.
    func open(_ route: String) async {
        let url = url(route)
        Task { await router.open(url) }
        await settle(after: "open \(url)")
    }

    /// Starts an open without waiting for it.
    func startOpen(_ route: String) {
        let url = url(route)
        Task { await router.open(url) }
    }

    /// Waits until the screen has caught up (or a transition ran past the timeout), then
    /// checks that the presenter shows the router's pages.
    ///
    /// A transition's time counts only while the main actor could run: each turn of this
    /// loop adds at most ``longestTurn``, so a main actor held elsewhere for seconds (a busy
    /// machine, a parallel test) does not fail a presenter whose completion was queued
    /// behind it all along.
    func settle(after step: String) async {
        let clock = ContinuousClock()
        var quiet = 0
        var lastTurn = clock.now
        while true {
            let now = clock.now
            let turn = min(now - lastTurn, Self.longestTurn)
            lastTurn = now
            for problem in probe.takeProblems() { fail("\(step): \(problem)") }
            if let running = probe.inFlight {
                if watched != running.since {
                    watched = running.since
                    waited = min(now - running.since, Self.longestTurn)
                } else {
                    waited += turn
                }
                if waited > timeout {
                    fail("\(step): \(running.description) did not complete within \(timeout)")
                    return
                }
            }
            // Settled, and still settled a few turns later (opens decide asynchronously).
            if router.isScreenSettled && probe.inFlight == nil {
                quiet += 1
                if quiet > 20 { break }
                await Task.yield()
                continue
            }
            quiet = 0
            try? await Task.sleep(for: .milliseconds(1))
        }
        let shown = probe.subject.shownPageIDs
        let model = router.pages.map(\.id)
        if shown != model {
            fail("\(step): the screen shows \(shown), the router's stack is \(model)")
        }
    }
}
