/// Waits on the main actor for a state the router reaches asynchronously — its decisions
/// run off the main actor, on a cooperative pool that a parallel test run can keep busy for
/// many seconds — instead of for a number of turns that a busy machine outlasts.
@MainActor
enum MainActorWait {
    /// Polls `condition` every millisecond until it holds or two minutes pass.
    /// - Returns: Whether it held.
    @discardableResult
    static func until(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(120)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }
}
