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
        /// The most lines it holds; at least 1.
        public var maximumLines: Int {
            didSet { maximumLines = max(1, maximumLines) }
        }
        /// The most bytes of lines it holds; at least one line's bound.
        public var maximumBytes: Int {
            didSet { maximumBytes = max(DecisionLogLine.maximumBytes, maximumBytes) }
        }

        /// Limits.
        /// - Parameters:
        ///   - maximumLines: The most lines (default 2,000).
        ///   - maximumBytes: The most bytes of lines (default 1 MiB): what suits a phone.
        public init(maximumLines: Int = 2_000, maximumBytes: Int = 1 << 20) {
            self.maximumLines = max(1, maximumLines)
            self.maximumBytes = max(DecisionLogLine.maximumBytes, maximumBytes)
        }
    }

    /// A line, or a decision kept to be written as one when it is taken: recording stays
    /// a copy and an append, and the writing — masking, JSON — happens on the uploader's
    /// task, off the thread that decided.
    private struct Entry {
        enum Content {
            case line(String)
            /// A decision, and when it was decided.
            case decision(LoggedDecision, Date)
        }

        var content: Content
        /// What a decision shares with those recorded beside it; set under the log's lock.
        var scope: Scope?
        /// What it counts for against the byte bound: a line its bytes; a decision not yet
        /// written the bytes of its URL, its params and its context, and
        /// ``DecisionLog/recordedOverhead`` (its outcome and deciding step). Kept, so dropping
        /// one reads no more of it.
        var size: Int

        static func line(_ text: String) -> Entry { Entry(content: .line(text), size: text.utf8.count) }
    }

    /// What the decisions recorded in a row share — the policy, the context, the app's
    /// version — held once for all of them: each recorded decision holds one reference,
    /// not the policy's lists and the context's values.
    private final class Scope {
        let policy: DecisionLogPolicy
        let context: ContextSnapshot
        /// The context's size, measured once and counted for every decision that holds
        /// it: the bound holds however many scopes the entries keep.
        let contextBytes: Int
        let appVersion: String?

        init(policy: DecisionLogPolicy, context: ContextSnapshot, appVersion: String?) {
            self.policy = policy
            self.context = context
            self.appVersion = appVersion
            contextBytes = RuleValue.payloadBytes(of: context.values)
        }

        func holds(policy: DecisionLogPolicy, context: ContextSnapshot, appVersion: String?) -> Bool {
            guard self.context === context, self.appVersion == appVersion else { return false }
            // The policy a bundle hands every decision shares its lists' storage with the one
            // held: that is checked first (by address, a tenth of comparing the lists).
            let held = self.policy
            if held.isEnabled == policy.isEnabled, held.sample == policy.sample,
                Self.sameStorage(held.context, policy.context), Self.sameStorage(held.masked, policy.masked),
                Self.sameStorage(held.hashed, policy.hashed)
            {
                return true
            }
            return held == policy
        }

        /// Whether two lists are one storage: then they are equal, without comparing a name.
        private static func sameStorage(_ first: [String], _ second: [String]) -> Bool {
            first.withUnsafeBufferPointer { one in
                second.withUnsafeBufferPointer { other in
                    one.baseAddress == other.baseAddress && one.count == other.count
                }
            }
        }
    }

    /// SplitMix64: the sampling draws, under the log's lock — the system's generator is a
    /// system call a draw, too dear for every decision.
    private struct SampleGenerator {
        var state: UInt64

        init(seed: UInt64) { state = seed }

        /// A number in 0..<1 with 53 random bits.
        mutating func nextUnit() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) * 0x1.0p-53
        }
    }

    private struct State {
        var generator: SampleGenerator
        /// What the latest decision recorded shares with those before it.
        var scope: Scope?
        var entries = RingBuffer<Entry>()
        var bytes = 0
        var dropped = 0
        var isEnabled = true

        var count: Int { entries.count }

        /// Adds `entry`, dropping the oldest past the bounds.
        mutating func append(_ entry: consuming Entry, limits: Limits) {
            let size = entry.size
            while count >= limits.maximumLines || (count > 0 && bytes + size > limits.maximumBytes) {
                bytes -= entries.removeFirst().size
                dropped += 1
            }
            entries.append(entry)
            bytes += size
        }
    }

    /// What a recorded decision counts for beside its URL, params and context until it is
    /// written.
    public static let recordedOverhead = 512

    /// Its bounds.
    public let limits: Limits
    private let state: Locked<State>
    private let draw: (@Sendable () -> Double)?
    private let now: @Sendable () -> Date

    /// An empty log.
    /// - Parameters:
    ///   - limits: How much it holds.
    ///   - draw: Where sampling draws its numbers in 0..<1; by default a generator of its
    ///     own, seeded once from the system's (tests pass their own).
    ///   - now: The time decisions are stamped with; by default the wall clock to a few
    ///     milliseconds (lines say the second).
    public init(
        limits: Limits = Limits(), draw: (@Sendable () -> Double)? = nil,
        now: (@Sendable () -> Date)? = nil
    ) {
        self.limits = limits
        self.draw = draw
        self.now = now ?? CoarseWallClock.now
        var system = SystemRandomNumberGenerator()
        state = Locked(State(generator: SampleGenerator(seed: system.next())))
    }

    /// Records `decision` when `policy` keeps it (``DecisionLogLine/keeps(_:policy:draw:)``):
    /// a copy of the decision and an append under one lock, nothing more — the line is
    /// written, masked, when an uploader takes it.
    /// - Parameters:
    ///   - decision: The decision.
    ///   - context: The context it was decided in; only what `policy` lists is kept.
    ///   - policy: The active bundle's log policy.
    ///   - appVersion: The app's version.
    /// - Returns: Whether it was recorded.
    @discardableResult
    public func record(
        _ decision: Decision, context: ContextSnapshot, policy: DecisionLogPolicy, appVersion: String?
    ) -> Bool {
        guard policy.isEnabled else { return false }
        // Sampled: a refusal, gate or unmatched URL always; at `sample: 1` everything;
        // else a draw from the log's generator, under its lock.
        let sampled: Bool
        if policy.sample >= 1 || LoggedDecision.isAlwaysKept(decision) {
            sampled = true
        } else if let draw {
            sampled = draw() < policy.sample
        } else {
            sampled = state.withLock { $0.generator.nextUnit() } < policy.sample
        }
        // Not sampled: kept all the same when a rule failed deciding it.
        guard sampled || LoggedDecision.ruleFailed(decision) else { return false }
        let logged = LoggedDecision(decision)
        let time = now()
        let urlBytes = logged.url.utf8.count
        let paramsBytes = logged.params.isEmpty ? 0 : RuleValue.payloadBytes(of: logged.params)
        let size = urlBytes + paramsBytes + Self.recordedOverhead
        return state.withLock { state in
            guard state.isEnabled else { return false }
            let scope: Scope
            if let latest = state.scope, latest.holds(policy: policy, context: context, appVersion: appVersion) {
                scope = latest
            } else {
                scope = Scope(policy: policy, context: context, appVersion: appVersion)
                state.scope = scope
            }
            let counted = size + scope.contextBytes
            // A URL longer than a line may be makes a line too long; a decision that holds
            // more than the whole log may would push everything else out: counted, not kept.
            guard urlBytes <= DecisionLogLine.maximumBytes, counted <= limits.maximumBytes else {
                state.dropped += 1
                return false
            }
            state.append(Entry(content: .decision(logged, time), scope: scope, size: counted), limits: limits)
            return true
        }
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
            state.append(.line(line), limits: limits)
        }
    }

    /// Takes the oldest lines, up to `maximumBytes` and `maximumLines` of them (at least
    /// one), and the count of lines dropped since the last batch. Decisions are written
    /// here, outside the lock, so recording never waits on it; one that cannot be written
    /// (a line over ``DecisionLogLine/maximumBytes``) is counted dropped.
    /// - Parameters:
    ///   - maximumBytes: The most bytes of lines the batch holds.
    ///   - maximumLines: The most lines it holds.
    /// - Returns: The batch; empty when there is nothing to send.
    public func take(maximumBytes: Int, maximumLines: Int = .max) -> DecisionLogBatch {
        let (entries, dropped) = state.withLock { state -> ([Entry], Int) in
            var taken: [Entry] = []
            var size = 0
            while let next = state.entries.first?.size, taken.count < maximumLines {
                guard taken.isEmpty || size + next <= maximumBytes else { break }
                taken.append(state.entries.removeFirst())
                size += next
                state.bytes -= next
            }
            let dropped = state.dropped
            state.dropped = 0
            return (taken, dropped)
        }
        var batch = DecisionLogBatch(lines: [], dropped: dropped)
        var size = 0
        var rest: [String] = []
        for entry in entries {
            let line: String
            switch entry.content {
            case .line(let text): line = text
            case .decision(let decision, let time):
                guard let scope = entry.scope,
                    let text = DecisionLogLine.make(
                        decision, context: scope.context, policy: scope.policy, appVersion: scope.appVersion,
                        time: time)
                else {
                    batch.dropped += 1
                    continue
                }
                line = text
            }
            // Written, a decision may be longer than it counted for: what passes the
            // batch's bound goes back in front.
            if !rest.isEmpty || (!batch.lines.isEmpty && size + line.utf8.count > maximumBytes) {
                rest.append(line)
            } else {
                batch.lines.append(line)
                size += line.utf8.count
            }
        }
        if !rest.isEmpty { putBack(DecisionLogBatch(lines: rest, dropped: 0)) }
        return batch
    }

    /// Puts a batch that could not be sent back in front, as far as the bounds allow: the
    /// lines that no longer fit are dropped and counted, newest kept.
    /// - Parameter batch: A batch ``take(maximumBytes:maximumLines:)`` gave.
    public func putBack(_ batch: DecisionLogBatch) {
        state.withLock { state in
            guard state.isEnabled else { return }
            let rest = state.entries.elements
            var bytes = state.bytes
            var dropped = state.dropped + batch.dropped
            // Newest first, while they fit; then in their order, in front of the rest.
            var front: [Entry] = []
            for line in batch.lines.reversed() {
                let entry = Entry.line(line)
                guard rest.count + front.count < limits.maximumLines, bytes + entry.size <= limits.maximumBytes else {
                    dropped += 1
                    continue
                }
                front.append(entry)
                bytes += entry.size
            }
            state.entries = RingBuffer(front.reversed() + rest)
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
                if !newValue { state = State(generator: state.generator, isEnabled: false) }
            }
        }
    }

    /// Whether it holds half the lines or half the bytes its limits allow: time to send.
    public var isHalfFull: Bool {
        state.withLock {
            $0.count * 2 >= limits.maximumLines || $0.bytes * 2 >= limits.maximumBytes
        }
    }

    /// How many lines and bytes it holds, and how many were dropped since the last batch.
    public var counts: (lines: Int, bytes: Int, dropped: Int) {
        state.withLock { ($0.count, $0.bytes, $0.dropped) }
    }
}
