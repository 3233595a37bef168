public import JunctionCore
/// What one rule evaluation returned, and what it cost.
public struct RuleResult: Sendable, Hashable {
    /// The rule's first return value (`.nil` when it returned nothing).
    public var value: RuleValue
    /// The VM instructions it ran, in units of ``SandboxLimits/instructionInterval``
    /// (a rule shorter than one interval reports 0).
    public var instructions: Int
}
