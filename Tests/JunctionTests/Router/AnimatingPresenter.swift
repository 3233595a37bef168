import Junction
import JunctionPresenterTesting

/// A presenter that animates as UIKit does, for the presenter-contract tests: a transition
/// stays in flight until the test completes it, the screen (a shadow of page ids) changes
/// when it completes, and the user's own changes — a swipe back, a legacy push — made
/// during an animation land the moment it ends, as UIKit's gestures wait for a transition.
@MainActor
final class AnimatingPresenter: Presenter {
    /// What the screen shows.
    var screen = ReferenceScreen()
    /// The transition being animated and its completion.
    private(set) var inFlight: (transition: Transition, completion: @MainActor () -> Void)?
    /// Transitions started while another was in flight: the nested-push corruption.
    private(set) var overlaps = 0
    /// How many transitions were shown.
    private(set) var shown = 0
    /// The user's changes waiting for the animation to end.
    private var afterAnimation: [@MainActor () -> Void] = []
    weak var router: Router?

    func apply(_ transition: Transition, animated: Bool, completion: @escaping @MainActor () -> Void) {
        if inFlight != nil { overlaps += 1 }
        inFlight = (transition, completion)
    }

    /// Ends the running animation: the screen changes, the user's waiting changes land,
    /// then the router hears that the transition completed.
    func completeAnimation() {
        guard let (transition, completion) = inFlight else { return }
        inFlight = nil
        screen.show(transition)
        shown += 1
        let waiting = afterAnimation
        afterAnimation = []
        for change in waiting { change() }
        completion()
    }

    /// The user swipes back from the page at `index` of the screen's visible pages (now,
    /// or when the running animation ends).
    func swipeBack(fromVisible index: Int) {
        let act = { @MainActor [self] in
            let visible = screen.visible
            guard visible.indices.contains(index), index > 0 else { return }
            let id = visible[index]
            screen.userRemoves(id)
            router?.screenDidChange(.removed(id))
        }
        if inFlight == nil { act() } else { afterAnimation.append(act) }
    }

    /// Legacy code pushes a view controller the router did not make.
    func legacyPush(named name: String) {
        let act = { @MainActor [self] in
            guard !screen.visible.isEmpty,
                let page = router?.screenDidChange(
                    .added(content: LegacyScreen(name: name), name: name, presented: false))
            else { return }
            screen.userPushes(page.id)
        }
        if inFlight == nil { act() } else { afterAnimation.append(act) }
    }

    /// Completes animations until the router has nothing left to show (decisions run off
    /// the main actor, so it waits for them rather than counting turns; two minutes at most).
    func settle(_ router: Router) async {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            for _ in 0..<20 { await Task.yield() }
            if inFlight == nil && router.isScreenSettled { return }
            if inFlight == nil { try? await Task.sleep(for: .milliseconds(1)) }
            completeAnimation()
        }
    }
}

/// A view controller made by code other than the router.
final class LegacyScreen {
    let name: String
    init(name: String) { self.name = name }
}
