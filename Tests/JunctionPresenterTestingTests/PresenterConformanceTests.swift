import Foundation
import Junction
import JunctionPresenterTesting
import Testing

/// The conformance suite passes presenters that keep the contract — at once or after a
/// delay, as an animation ends — and names what each broken one does wrong.
@MainActor
@Suite struct PresenterConformanceTests {
    /// How a test presenter misbehaves.
    enum Flaw { case none, neverCompletes, completesTwice, ignoresReplace }

    /// A presenter over a ``ReferenceScreen``: completes at once, or after `delay`.
    final class ScreenPresenter: InspectablePresenter {
        var screen = ReferenceScreen()
        let delay: Duration?
        let flaw: Flaw
        /// How long the first transition holds the main actor after it starts its animation.
        var stall: TimeInterval?
        init(delay: Duration? = nil, flaw: Flaw = .none, stall: TimeInterval? = nil) {
            self.delay = delay
            self.flaw = flaw
            self.stall = stall
        }
        var shownPageIDs: [PageID] { screen.visible }

        func apply(_ transition: Transition, animated: Bool, completion: @escaping @MainActor () -> Void) {
            if flaw == .ignoresReplace, case .replace = transition {
            } else {
                screen.show(transition)
            }
            switch flaw {
            case .neverCompletes: return
            case .completesTwice:
                completion()
                completion()
            case .none, .ignoresReplace:
                guard let delay else { return completion() }
                Task { @MainActor in
                    try? await Task.sleep(for: delay)
                    completion()
                }
                if let stall {
                    self.stall = nil
                    Thread.sleep(forTimeInterval: stall)
                }
            }
        }
    }

    /// Generous: the parallel suite can keep the main actor from resuming a delayed
    /// completion for a long while. Only the presenter that never completes waits less.
    static let quick = PresenterConformance.Options(seeds: 0..<3, steps: 25, transitionTimeout: .seconds(10))

    static func run(
        _ make: @escaping @MainActor () -> ScreenPresenter, options: PresenterConformance.Options = quick
    ) async -> [PresenterConformance.Failure] {
        await PresenterConformance.run(
            makePresenter: make, content: { route, id in "\(route) \(id)" }, options: options)
    }

    @Test func passesAPresenterThatCompletesAtOnce() async {
        let failures = await Self.run { ScreenPresenter() }
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func passesAPresenterThatCompletesWhenItsAnimationEnds() async {
        let failures = await Self.run { ScreenPresenter(delay: .milliseconds(2)) }
        #expect(failures.isEmpty, "\(failures)")
    }

    /// A main actor held elsewhere past the timeout, with the completion queued behind it,
    /// is the machine's fault, not the presenter's (CI on a busy machine failed this way).
    @Test func passesAPresenterWhoseCompletionWaitedBehindABusyMainActor() async {
        var brief = Self.quick
        brief.transitionTimeout = .milliseconds(200)
        let failures = await Self.run({ ScreenPresenter(delay: .milliseconds(2), stall: 0.4) }, options: brief)
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func namesATransitionThatNeverCompletes() async {
        var brief = Self.quick
        brief.transitionTimeout = .milliseconds(200)
        let failures = await Self.run({ ScreenPresenter(flaw: .neverCompletes) }, options: brief)
        #expect(!failures.isEmpty)
        #expect(failures.contains { $0.message.contains("did not complete within") }, "\(failures)")
    }

    @Test func namesACompletionCalledTwice() async {
        let failures = await Self.run { ScreenPresenter(flaw: .completesTwice) }
        #expect(failures.contains { $0.message.contains("completion called more than once") }, "\(failures)")
    }

    @Test func namesAScreenThatDiffersFromTheModel() async {
        let failures = await Self.run { ScreenPresenter(flaw: .ignoresReplace) }
        #expect(failures.contains { $0.check == "replace and new root" && $0.message.contains("the screen shows") })
    }
}
