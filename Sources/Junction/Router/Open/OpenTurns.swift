/// Carries opens out in the order they were made: each takes a ticket when it starts,
/// decides at its own pace, and changes the stack only when every open before it has
/// changed it (or failed). Opens made while one is carried out — a gate's own page, a
/// navigation's next step, an open from a task or factory — are part of it and skip
/// the line (``Router/isCarryingOut``).
@MainActor
final class OpenTurns {
    private var issued = 0
    /// The ticket whose turn it is.
    private var serving = 1
    private var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    private var finished: Set<Int> = []

    /// The next ticket, in the order opens start.
    func take() -> Int {
        issued += 1
        return issued
    }

    /// Returns when it is `ticket`'s turn.
    func wait(for ticket: Int) async {
        guard ticket > serving else { return }
        await withCheckedContinuation { waiting[ticket] = $0 }
    }

    /// `ticket` is done: the next one's turn comes.
    func done(_ ticket: Int) {
        finished.insert(ticket)
        while finished.remove(serving) != nil {
            serving += 1
            waiting.removeValue(forKey: serving)?.resume()
        }
    }
}
