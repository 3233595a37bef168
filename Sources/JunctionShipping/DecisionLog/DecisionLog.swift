public import Foundation
public import Junction

/// The device's decision log: the lines of the decisions the bundle lets it keep
/// (``DecisionLogLine``), waiting to be uploaded, in a buffer bounded in lines and in bytes.
///
/// When a line would pass either bound, the oldest are dropped first, and counted: the
/// count goes up with the next batch (``DecisionLogBatch/dropped``), so a report knows
/// what it did not see. Recording is safe from any thread and never waits on an upload.
///
/// ```swift
/// let log = DecisionLog()
/// router.decisionObserver = { [unowned router] decision in
///     log.record(decision, context: router.context, policy: installer.policy.manifest.log, appVersion: "6.1.0")
/// }
/// ```
public final class DecisionLog: Sendable {
    /// How much the log holds.
    public struct Limits: Sendable, Hashable {
        /// The most lines it holds.
        public var maximumLines: Int
        /// The most bytes of lines it holds.
        public var maximumBytes: Int

        /// Limits.
        /// - Parameters:
        ///   - maximumLines: The most lines (default 2,000).
        ///   - maximumBytes: The most bytes of lines (default 1 MiB): what suits a phone.
        public init(maximumLines: Int = 2_000, maximumBytes: Int = 1 << 20) {
            self.maximumLines = max(1, maximumLines)
            self.maximumBytes = max(DecisionLogLine.maximumBytes, maximumBytes)
        }
    }

    private struct State {
        var lines: [String] = []
        /// The index of the oldest line in `lines`; those before it are taken or dropped.
        var start = 0
        var bytes = 0
        var dropped = 0
        var isEnabled = true
    }

    /// Its bounds.
    public let limits: Limits
    private let state = Locked(State())
    private let draw: @Sendable () -> Double
    private let now: @Sendable () -> Date

    /// An empty log.
    /// - Parameters:
    ///   - limits: How much it holds.
    ///   - draw: Where sampling draws its numbers in 0..<1 (tests pass their own).
    ///   - now: The time decisions are stamped with.
    public init(
        limits: Limits = Limits(), draw: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.limits = limits
        self.draw = draw
        self.now = now
    }

    /// Records `decision` when `policy` keeps it (``DecisionLogLine/keeps(_:policy:draw:)``).
    /// - Parameters:
    ///   - decision: The decision.
    ///   - context: The context it was decided in; only what `policy` lists is kept.
    ///   - policy: The active bundle's log policy.
    ///   - appVersion: The app's version.
    /// - Returns: Whether a line was recorded.
    @discardableResult
    public func record(
        _ decision: Decision, context: ContextSnapshot, policy: DecisionLogPolicy, appVersion: String?
    ) -> Bool {
        guard isEnabled, DecisionLogLine.keeps(decision, policy: policy, draw: draw()) else { return false }
        guard
            let line = DecisionLogLine.make(
                decision, context: context, policy: policy, appVersion: appVersion, time: now())
        else {
            state.withLock { $0.dropped += 1 }
            return false
        }
        append(line)
        return true
    }

    /// Adds a line made elsewhere (a status report), under the same bounds.
    /// - Parameter line: One line of canonical JSON, at most ``DecisionLogLine/maximumBytes``.
    public func append(_ line: String) {
        let size = line.utf8.count
        state.withLock { state in
            guard state.isEnabled else { return }
            guard size <= DecisionLogLine.maximumBytes else {
                state.dropped += 1
                return
            }
            while state.lines.count - state.start >= limits.maximumLines
                || state.bytes + size > limits.maximumBytes
            {
                state.bytes -= state.lines[state.start].utf8.count
                state.start += 1
                state.dropped += 1
            }
            state.lines.append(line)
            state.bytes += size
            // Give back the taken and dropped lines' slots now and then, not on every line.
            if state.start > limits.maximumLines {
                state.lines.removeFirst(state.start)
                state.start = 0
            }
        }
    }

    /// Takes the oldest lines, up to `maximumBytes` and `maximumLines` of them (at least
    /// one), and the count of lines dropped since the last batch.
    /// - Parameters:
    ///   - maximumBytes: The most bytes of lines the batch holds.
    ///   - maximumLines: The most lines it holds.
    /// - Returns: The batch; empty when there is nothing to send.
    public func take(maximumBytes: Int, maximumLines: Int = .max) -> DecisionLogBatch {
        state.withLock { state in
            var lines: [String] = []
            var size = 0
            while state.start < state.lines.count, lines.count < maximumLines {
                let next = state.lines[state.start].utf8.count
                guard lines.isEmpty || size + next <= maximumBytes else { break }
                lines.append(state.lines[state.start])
                size += next
                state.bytes -= next
                state.start += 1
            }
            if state.start == state.lines.count {
                state.lines.removeAll(keepingCapacity: true)
                state.start = 0
            }
            let dropped = state.dropped
            state.dropped = 0
            return DecisionLogBatch(lines: lines, dropped: dropped)
        }
    }

    /// Puts a batch that could not be sent back in front, as far as the bounds allow: the
    /// lines that no longer fit are dropped and counted, newest kept.
    /// - Parameter batch: A batch ``take(maximumBytes:)`` gave.
    public func putBack(_ batch: DecisionLogBatch) {
        state.withLock { state in
            var kept = Array(state.lines[state.start...])
            var bytes = state.bytes
            var dropped = state.dropped + batch.dropped
            for line in batch.lines.reversed() {
                let size = line.utf8.count
                guard kept.count < limits.maximumLines, bytes + size <= limits.maximumBytes else {
                    dropped += 1
                    continue
                }
                kept.insert(line, at: 0)
                bytes += size
            }
            state.lines = kept
            state.start = 0
            state.bytes = bytes
            state.dropped = dropped
        }
    }

    /// Counts `count` lines as dropped elsewhere — refused by the collector for good, or
    /// removed from the pending folder — so the next batch reports them.
    /// - Parameter count: How many.
    public func countDropped(_ count: Int) {
        guard count > 0 else { return }
        state.withLock { $0.dropped += count }
    }

    /// Whether it records: switched off (a kill switch), it empties itself, forgets its
    /// drops and records nothing until switched on.
    public var isEnabled: Bool {
        get { state.withLock { $0.isEnabled } }
        set {
            state.withLock { state in
                state.isEnabled = newValue
                if !newValue { state = State(isEnabled: false) }
            }
        }
    }

    /// Whether it holds half the lines or half the bytes its limits allow: time to send.
    public var isHalfFull: Bool {
        state.withLock {
            ($0.lines.count - $0.start) * 2 >= limits.maximumLines || $0.bytes * 2 >= limits.maximumBytes
        }
    }

    /// How many lines and bytes it holds, and how many were dropped since the last batch.
    public var counts: (lines: Int, bytes: Int, dropped: Int) {
        state.withLock { ($0.lines.count - $0.start, $0.bytes, $0.dropped) }
    }
}
