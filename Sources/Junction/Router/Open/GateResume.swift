/// A request held by a gate (a rule's `gate`: log in first), from the moment the gate's
/// page opens to the end of the resumed request: whether it resumes, whether it already
/// did in the gate page's place, and who waits for how it ended.
@MainActor
final class GateResume {
    /// The request to carry out when the gate's page finishes with `ok`.
    let gated: PendingOpen
    /// Whether the rule asked for the request to resume (`resume = false`: it does not).
    let resumes: Bool
    /// Set once the request has resumed (or was abandoned): the gate's page leaving later
    /// must not start it again.
    var isSettled = false
    /// How the resumed request ended, once it has.
    private(set) var outcome: Opening?
    private var waiters: [CheckedContinuation<Opening, Never>] = []

    init(gated: PendingOpen, resumes: Bool) {
        self.gated = gated
        self.resumes = resumes
    }

    /// Records how the request ended and wakes whoever waits for it.
    func end(_ opening: Opening) {
        guard outcome == nil else { return }
        outcome = opening
        for waiter in waiters { waiter.resume(returning: opening) }
        waiters = []
    }

    /// How the request ended: at once when it has, else when it does.
    func ending() async -> Opening {
        if let outcome { return outcome }
        return await withCheckedContinuation { waiters.append($0) }
    }
}
