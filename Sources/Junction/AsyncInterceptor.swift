public import JunctionCore

/// An interceptor in Swift that may `await` — refresh a token, ask for a permission — under
/// a deadline. It runs in the ``Router`` after the decision, off the main actor, for a
/// request the decision opens, and answers with the same verdicts as a rule.
///
/// ```swift
/// try router.add(AsyncInterceptor("token", scope: .group("login"), deadline: .seconds(2)) { request, context in
///     try await session.refreshIfExpired()
///     return .continue
/// })
/// ```
///
/// Why after the decision rather than among the rules: a decision holds a Lua engine from
/// a bounded pool while it runs, so an interceptor awaiting the network inside it would
/// hold that engine for seconds. After it, a Lua rule's rejection or gate never waits for
/// a token refresh, the CLI and rule tests stay synchronous and pure, and only requests
/// that would open pay the wait.
public struct AsyncInterceptor: Sendable {
    /// The longest deadline an interceptor may have.
    public static let maximumDeadline: Duration = .seconds(60)

    /// Its unique name, shown in traces.
    public var name: String
    /// Which requests it sees (as for ``SwiftInterceptor``).
    public var scope: SwiftInterceptor.Scope
    /// Higher runs first; equal priorities run in the order added.
    public var priority: Int
    /// How long it may take; at its end the interceptor's task is cancelled, its late
    /// verdict ignored, and ``onError`` applies.
    public var deadline: Duration
    /// What happens when it throws, misses its deadline or returns `next()`; `reject` by
    /// default.
    public var onError: RuleErrorPolicy
    /// The interceptor.
    public var run: @Sendable (RuleRequest, ContextSnapshot) async throws -> Verdict

    /// An interceptor.
    /// - Parameters:
    ///   - name: A unique name.
    ///   - scope: Which requests it sees.
    ///   - priority: Higher first; 0 by default.
    ///   - deadline: More than zero and at most ``maximumDeadline``; 5 seconds by default.
    ///   - onError: Applies when `run` throws or misses its deadline; `reject` by default.
    ///   - run: Reads the request and the context and returns a verdict.
    public init(
        _ name: String, scope: SwiftInterceptor.Scope, priority: Int = 0, deadline: Duration = .seconds(5),
        onError: RuleErrorPolicy = .reject,
        run: @escaping @Sendable (RuleRequest, ContextSnapshot) async throws -> Verdict
    ) {
        precondition(
            deadline > .zero && deadline <= Self.maximumDeadline,
            "an async interceptor's deadline is more than zero and at most \(Self.maximumDeadline), got \(deadline)")
        self.name = name
        self.scope = scope
        self.priority = priority
        self.deadline = deadline
        self.onError = onError
        self.run = run
    }
}
