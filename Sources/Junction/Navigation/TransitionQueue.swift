/// The router's side of the presenter contract: transitions go to the presenter one at a
/// time, each only after the one before has completed, while the model runs ahead.
///
/// Keeps `screen`, the stack as the presenter has shown it (replayed from the completed
/// transitions and the user's own changes), and, in order with the transitions, what must
/// happen once they are on screen: results delivered, openers resumed.
@MainActor
final class TransitionQueue {
    private enum Step {
        case show(Transition, animated: Bool)
        case then(@MainActor () -> Void)
    }

    private let presenter: any Presenter
    private var steps: [Step] = []
    /// The transition the presenter is showing and the token its completion must carry.
    private var inFlight: (token: UInt64, transition: Transition)?
    private var issued: UInt64 = 0
    private var draining = false
    /// The user's changes, each run when no transition is in flight.
    private var screenChanges: [@MainActor () -> Void] = []
    /// Completions called for a transition that was not in flight: a presenter bug.
    private(set) var strayCompletions = 0
    /// What the screen shows.
    private(set) var screen = PageStack()

    init(presenter: any Presenter) { self.presenter = presenter }

    /// Whether nothing is showing or waiting.
    var isSettled: Bool { inFlight == nil && steps.isEmpty && screenChanges.isEmpty }

    /// Whether transitions wait behind the one in flight.
    var hasWaitingTransitions: Bool {
        steps.contains { if case .show = $0 { true } else { false } }
    }

    /// Shows `transitions` in order after everything queued before, then runs `then`.
    func enqueue(_ transitions: [Transition], animated: Bool, then: (@MainActor () -> Void)? = nil) {
        steps += transitions.map { .show($0, animated: animated) }
        if let then { steps.append(.then(then)) }
        drain()
    }

    /// Returns once everything queued before the call is on screen.
    func reached() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            enqueue([], animated: false) { done.resume() }
        }
    }

    /// Runs `change` (the user's own change to the screen) as soon as no transition is in
    /// flight: at once when none is, else right after the running one completes, before
    /// any waiting one starts.
    func whenScreenIsStill(_ change: @escaping @MainActor () -> Void) {
        screenChanges.append(change)
        drain()
    }

    /// Changes `screen` as the user did.
    func screenChanged(_ change: (inout PageStack) -> Void) { change(&screen) }

    /// Drops the waiting transitions (keeping, in order, what was to run after them) and
    /// shows the screen the way to `model` in their place.
    func catchUp(to model: PageStack, animated: Bool) {
        let afterwards = steps.filter { if case .then = $0 { true } else { false } }
        steps = screen.transitions(toReach: model).map { .show($0, animated: animated) } + afterwards
        drain()
    }

    private func drain() {
        guard !draining else { return }
        draining = true
        defer { draining = false }
        while inFlight == nil {
            if !screenChanges.isEmpty {
                screenChanges.removeFirst()()
                continue
            }
            guard !steps.isEmpty else { break }
            switch steps.removeFirst() {
            case .then(let action):
                action()
            case .show(let transition, let animated):
                issued += 1
                let token = issued
                inFlight = (token, transition)
                presenter.apply(transition, animated: animated) { [weak self] in self?.completed(token) }
            }
        }
    }

    private func completed(_ token: UInt64) {
        guard let current = inFlight, current.token == token else {
            strayCompletions += 1
            return
        }
        inFlight = nil
        screen.replay(current.transition)
        drain()
    }
}
