/// What a task receives: the route reached, its typed parameters and the decision
/// behind it.
public struct TaskRequest: Sendable {
    /// The route reached, after redirects and rules.
    public let route: Route
    /// The URL, after redirects.
    public let url: String
    /// The parameters, typed by the route's declarations.
    public let params: RouteParameters
    /// The caller's non-business options.
    public let exts: [String: RuleValue]
    /// Who asked.
    public let source: RequestSource
    /// The decision, with its trace.
    public let decision: Decision
}
