public import JunctionCore

/// Where two traces of the same request part: the first step that differs in what it
/// did — its stage, rule or route, verdict, detail or error. Where a rule is written
/// (`login.lua:12`), its time and its instructions do not count: a line added above a
/// rule moves it without changing what it does.
public struct TraceDivergence: Sendable, Hashable {
    /// The step's index, from 0.
    public var index: Int
    /// The old trace's step there; `nil` when the old trace ended before it.
    public var old: TraceStep?
    /// The new trace's step there; `nil` when the new trace ended before it.
    public var new: TraceStep?

    /// Where `old` and `new` part, or `nil` when they do the same steps.
    /// - Parameters:
    ///   - old: The trace under the policy shipped now.
    ///   - new: The trace under the candidate policy.
    public init?(old: DecisionTrace, new: DecisionTrace) {
        let steps = min(old.steps.count, new.steps.count)
        var index = 0
        while index < steps, Self.sameEffect(old.steps[index], new.steps[index]) { index += 1 }
        guard index < old.steps.count || index < new.steps.count else { return nil }
        self.index = index
        self.old = index < old.steps.count ? old.steps[index] : nil
        self.new = index < new.steps.count ? new.steps[index] : nil
    }

    private static func sameEffect(_ a: TraceStep, _ b: TraceStep) -> Bool {
        a.stage == b.stage && a.name == b.name && a.verdict == b.verdict && a.detail == b.detail && a.error == b.error
    }
}
