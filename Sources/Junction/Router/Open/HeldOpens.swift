/// The opens that arrived before ``Router/ready()``, in order, and whether the router is
/// holding them.
@MainActor
struct HeldOpens {
    /// One open waiting for the router to be ready.
    struct Held {
        let ticket: Int
        let pending: PendingOpen
        let continuation: CheckedContinuation<Opening, Never>
    }

    enum State {
        /// Opens are decided as they come.
        case ready
        /// Opens wait for `ready()`; each at most `deadline`.
        case holding(deadline: Duration)
        /// `ready()` was called: the held opens are being carried out in order, and opens
        /// arriving meanwhile queue behind them.
        case draining
    }

    var state: State = .ready
    var queue: [Held] = []
    var nextTicket = 0
}
