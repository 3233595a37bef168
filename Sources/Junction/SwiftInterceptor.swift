/// An interceptor written in Swift. It takes part in the same order as the bundle's Lua
/// rules and answers with the same verdicts, so an app can mix the two.
///
/// ```swift
/// let audit = SwiftInterceptor("audit", scope: .all, priority: 100) { request, context in
///     request.source == .push && request.route?.isExported == false ? .reject(reason: "not for push", code: 403) : .continue
/// }
/// ```
public struct SwiftInterceptor: Sendable {
    /// Which requests it sees.
    public enum Scope: Sendable, Hashable {
        /// Every matched route, with the bundle's `all = true` interceptors.
        case all
        /// Every route in the group, after the bundle's policies for that group.
        case group(String)
        /// The route of this name (``Route/name``), with the route interceptors.
        case route(String)
        /// The routes of these names.
        case routes([String])
        /// Whatever route decides a URL this pattern matches, with the route interceptors.
        case pattern(String)
        /// Whatever route decides a URL one of these patterns matches.
        case patterns([String])
    }

    /// Its unique name, shown in traces.
    public var name: String
    /// Which requests it sees.
    public var scope: Scope
    /// Higher runs first among interceptors of its stage (all routes, one group, or the
    /// route's own); equal priorities run Lua rules first, then Swift ones in the order given.
    public var priority: Int
    /// What happens when it throws; `reject` by default.
    public var onError: RuleErrorPolicy
    /// The interceptor.
    public var run: @Sendable (RuleRequest, ContextSnapshot) throws -> Verdict

    /// An interceptor.
    /// - Parameters:
    ///   - name: A unique name.
    ///   - scope: Which requests it sees.
    ///   - priority: Higher first; 0 by default.
    ///   - onError: Applies when `run` throws; `reject` by default.
    ///   - run: Reads the request and the context and returns a verdict.
    public init(
        _ name: String, scope: Scope, priority: Int = 0, onError: RuleErrorPolicy = .reject,
        run: @escaping @Sendable (RuleRequest, ContextSnapshot) throws -> Verdict
    ) {
        self.name = name
        self.scope = scope
        self.priority = priority
        self.onError = onError
        self.run = run
    }
}
