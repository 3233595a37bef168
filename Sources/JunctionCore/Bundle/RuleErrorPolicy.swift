/// What a decision does when a rule fails — raises an error or exceeds a budget.
public enum RuleErrorPolicy: String, Sendable, Hashable, CaseIterable {
    /// Carry on as if the rule had returned nothing. For rules whose failure is harmless
    /// (analytics, cosmetic redirects).
    case `continue`
    /// Refuse the request. The default: a broken login gate must not let people through.
    case reject
}
