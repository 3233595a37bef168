public import Junction

/// The presenter contract, run against an app's own presenter in its test target:
///
/// ```swift
/// @Test @MainActor func myPresenterKeepsTheContract() async {
///     let failures = await PresenterConformance.run(
///         makePresenter: { UIKitPresenter(window: testWindow()) },
///         content: { route, id in TestViewController(route: route, id: id) })
///     #expect(failures.isEmpty, "\(failures)")
/// }
/// ```
///
/// It drives a router (routes of its own, no rules) through every kind of transition —
/// push, present, pop, dismiss, replace, a new root, tabs and a tab selected — then
/// through opens queued without waiting and seeded random sessions. It fails when the
/// presenter completes a transition twice or not within ``Options/transitionTimeout``,
/// when the router had to start a transition over another (it never should: that is the
/// probe's own check of the router), or when, once the screen has settled, the pages the
/// presenter says it shows (``InspectablePresenter/shownPageIDs``) are not the router's.
///
/// What the user changes on screen (a swipe back) is not driven here: that needs the UI,
/// and belongs to the app's UI tests, which report it with `router.screenDidChange(_:)`.
public enum PresenterConformance {
    /// How long and how hard to run.
    public struct Options: Sendable {
        /// The seeds of the random sessions.
        public var seeds: Range<Int>
        /// Steps per random session.
        public var steps: Int
        /// How long one transition may take before it counts as never completed.
        public var transitionTimeout: Duration

        /// Eight sessions of 40 steps; 5 s a transition.
        public init(seeds: Range<Int> = 0..<8, steps: Int = 40, transitionTimeout: Duration = .seconds(5)) {
            self.seeds = seeds
            self.steps = steps
            self.transitionTimeout = transitionTimeout
        }
    }

    /// One way the presenter broke the contract.
    public struct Failure: Sendable, CustomStringConvertible {
        /// The check that failed: `push`, `queued opens`, `seed 3`.
        public let check: String
        /// What went wrong.
        public let message: String
        /// `check: message`.
        public var description: String { "\(check): \(message)" }
    }

    /// The routes the suite opens: pages pushed, presented, put in place of the top page or
    /// made the root, by number.
    public static let routes = [
        Route(name: "page", pattern: "conformance://page/:n"),
        Route(name: "sheet", pattern: "conformance://sheet/:n", meta: ["presentation": "present"]),
        Route(name: "swap", pattern: "conformance://swap/:n", meta: ["presentation": "replace"]),
        Route(name: "root", pattern: "conformance://root/:n", meta: ["presentation": "root"]),
    ]

    /// Runs the suite.
    /// - Parameters:
    ///   - makePresenter: A fresh presenter for each check, over a fresh screen.
    ///   - content: What the page of `route` (`page`, `sheet`, `swap`, `root`) with `id`
    ///     shows: a view controller for a UIKit presenter.
    ///   - options: How long and how hard to run.
    /// - Returns: Every failure; none when the presenter keeps the contract.
    @MainActor
    public static func run<Subject: InspectablePresenter>(
        makePresenter: @MainActor () -> Subject, content: @escaping @MainActor (String, PageID) -> Any,
        options: Options = Options()
    ) async -> [Failure] {
        var failures: [Failure] = []
        for script in ConformanceScript.all {
            let session = ConformanceSession(
                check: script.name, subject: makePresenter(), content: content, timeout: options.transitionTimeout)
            guard let session else {
                failures.append(Failure(check: script.name, message: "the suite's routes did not build"))
                continue
            }
            await script.run(session)
            failures += session.failures
        }
        for seed in options.seeds {
            let session = ConformanceSession(
                check: "seed \(seed)", subject: makePresenter(), content: content, timeout: options.transitionTimeout)
            guard let session else { continue }
            await ConformanceScript.randomSession(session, seed: seed, steps: options.steps)
            failures += session.failures
        }
        return failures
    }
}
