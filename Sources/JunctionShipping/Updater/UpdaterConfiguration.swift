/// How a ``BundleUpdater`` polls: how often, how long one attempt may take, how it backs
/// off after failures and how far it honours a server's `Retry-After`.
public struct UpdaterConfiguration: Sendable, Hashable {
    /// The shortest poll interval: anything shorter is raised to it, so a zero or negative
    /// interval cannot spin.
    public static let minimumInterval: Duration = .milliseconds(100)

    /// The time between polls that succeed (or are refused), spread by ``intervalSpread``;
    /// at least ``minimumInterval``. 15 minutes by default.
    public var interval: Duration {
        didSet { interval = max(interval, Self.minimumInterval) }
    }
    /// The fraction each interval is varied by at random, from 0 to 0.5 (0.1: ±10%), so
    /// devices that started together do not stay in step.
    public var intervalSpread: Double {
        didSet { intervalSpread = min(max(intervalSpread, 0), 0.5) }
    }
    /// How long one poll's network exchanges — the pointer, then the artifact — may take in
    /// all; a server that drips bytes is cut off here. 60 seconds by default.
    public var attemptDeadline: Duration
    /// The waits after unreachable polls; never longer than ``interval``.
    public var backoff: RetrySchedule
    /// The longest `Retry-After` honoured; a longer one waits this long. 1 hour by default.
    public var maximumRetryAfter: Duration

    /// A configuration.
    /// - Parameters:
    ///   - interval: The time between polls; raised to ``minimumInterval``.
    ///   - intervalSpread: The random spread of each interval, clamped to 0...0.5.
    ///   - attemptDeadline: The most one poll's exchanges take (positive).
    ///   - backoff: The waits after unreachable polls.
    ///   - maximumRetryAfter: The longest `Retry-After` honoured.
    public init(
        interval: Duration = .seconds(15 * 60), intervalSpread: Double = 0.1, attemptDeadline: Duration = .seconds(60),
        backoff: RetrySchedule = RetrySchedule(), maximumRetryAfter: Duration = .seconds(3_600)
    ) {
        precondition(attemptDeadline > .zero, "an attempt's deadline is positive")
        self.interval = max(interval, Self.minimumInterval)
        self.intervalSpread = min(max(intervalSpread, 0), 0.5)
        self.attemptDeadline = attemptDeadline
        self.backoff = backoff
        self.maximumRetryAfter = max(maximumRetryAfter, .zero)
    }
}
