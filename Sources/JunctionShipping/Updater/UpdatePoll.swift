public import Foundation

/// One poll, as the updater reports it on ``BundleUpdater/polls``: when it started, what
/// it came to, and the device's status afterwards.
public struct UpdatePoll: Sendable, Hashable, CustomStringConvertible {
    /// When the poll started: the time every date in it was judged by.
    public let started: Date
    /// What it came to.
    public let outcome: UpdatePollOutcome
    /// What runs afterwards, and how it stands (``UpdateCondition/stale`` past the active
    /// bundle's expiry).
    public let status: UpdateStatus

    /// A poll.
    /// - Parameters:
    ///   - started: When it started.
    ///   - outcome: What it came to.
    ///   - status: The status afterwards.
    public init(started: Date, outcome: UpdatePollOutcome, status: UpdateStatus) {
        self.started = started
        self.outcome = outcome
        self.status = status
    }

    /// The outcome, then the status.
    public var description: String { "\(outcome) — \(status)" }
}
