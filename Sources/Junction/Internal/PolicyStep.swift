import JunctionCore

/// One interceptor or group policy as the decider runs it: Lua or Swift, with where it
/// comes from, when it runs and what its failure means.
final class PolicyStep: Sendable {
    /// What runs.
    enum Body: Sendable {
        /// A declared Lua function, by its index in the engine.
        case lua(Int)
        /// A Swift closure.
        case swift(@Sendable (RuleRequest, ContextSnapshot) throws -> Verdict)
    }

    /// `global`, `group` or `route`.
    let stage: TraceStep.Stage
    /// The interceptor's name, or the group's for a policy.
    let name: String
    /// `file.lua:12`, or `swift`.
    let location: String
    /// Higher first, within its stage.
    let priority: Int
    /// What a failure does.
    let onError: RuleErrorPolicy
    /// What runs.
    let body: Body
    /// Registration order, the last tie-break: Lua rules in declaration order, then
    /// Swift interceptors in the order given.
    let order: Int

    init(
        stage: TraceStep.Stage, name: String, location: String, priority: Int, onError: RuleErrorPolicy, body: Body,
        order: Int
    ) {
        self.stage = stage
        self.name = name
        self.location = location
        self.priority = priority
        self.onError = onError
        self.body = body
        self.order = order
    }

    /// Whether `self` runs before `other` in the same stage: higher priority first,
    /// then registration order.
    func runsBefore(_ other: PolicyStep) -> Bool {
        priority != other.priority ? priority > other.priority : order < other.order
    }
}
