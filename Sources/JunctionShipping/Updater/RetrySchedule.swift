/// How long the updater waits after failed polls: exponential backoff with full jitter —
/// after the n-th failure in a row, a wait drawn uniformly from zero to
/// `min(cap, base × 2ⁿ⁻¹)` — so a fleet that lost its host does not come back in step,
/// and one failure never throttles for long (the first retry comes within `base`).
public struct RetrySchedule: Sendable, Hashable {
    /// The most the first retry waits.
    public var base: Duration
    /// The most any retry waits.
    public var cap: Duration

    /// A schedule.
    /// - Parameters:
    ///   - base: The most the first retry waits (positive).
    ///   - cap: The most any retry waits (at least `base`).
    public init(base: Duration = .seconds(2), cap: Duration = .seconds(300)) {
        precondition(base > .zero && cap >= base, "a backoff's base is positive and its cap at least the base")
        self.base = base
        self.cap = cap
    }

    /// The most the wait after `failures` failures in a row can be: `min(cap, base × 2ⁿ⁻¹)`.
    /// - Parameter failures: Failures in a row, from 1.
    public func ceiling(afterFailures failures: Int) -> Duration {
        let doublings = max(0, failures - 1)
        // Past 2⁴⁰ × base every reasonable cap is reached; the shift cannot overflow.
        guard doublings < 40 else { return cap }
        let ceiling = base * (1 << doublings)
        return min(ceiling, cap)
    }

    /// The wait after `failures` failures in a row, uniform in `0...ceiling(afterFailures:)`,
    /// drawn from the system's random generator.
    /// - Parameter failures: Failures in a row, from 1.
    public func delay(afterFailures failures: Int) -> Duration {
        ceiling(afterFailures: failures) * Double.random(in: 0...1)
    }

    /// The wait after `failures` failures in a row: uniform in `0...ceiling(afterFailures:)`.
    /// - Parameters:
    ///   - failures: Failures in a row, from 1.
    ///   - generator: The randomness.
    public func delay(afterFailures failures: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        ceiling(afterFailures: failures) * Double.random(in: 0...1, using: &generator)
    }
}
