package import JunctionCore

/// One rule as the decider runs it — an interceptor, a group policy, a fallback or a
/// declared redirect's `when`; Lua or Swift — with where it comes from, when it runs and
/// what its failure means.
package final class PolicyStep: Sendable {
    /// What runs.
    package enum Body: Sendable {
        /// A declared Lua function, by its index in the engine.
        case lua(Int)
        /// A Swift closure.
        case swift(@Sendable (RuleRequest, ContextSnapshot) throws -> Verdict)
        /// An ``AsyncInterceptor``: run by the decision's async stage, which awaits it with
        /// no engine held (``AsyncStage``), never by a synchronous chain.
        case async
    }

    /// How the decider reads what a step returns, which depends on where in the pipeline
    /// it runs. A failure that `on_error = continue` lets pass reads as `nil` would.
    package enum Kind {
        /// An interceptor or group policy of a matched route returns a verdict: `nil`
        /// carries on, `rewrite` changes the route's parameters and carries on, `next()`
        /// declines the route.
        case interceptor
        /// A fallback for a URL no route matched returns a verdict: `nil` and `next()`
        /// leave the URL to the next fallback; `rewrite` fails, as there is no route
        /// whose parameters it could change.
        case fallback
        /// A declared redirect's `when` returns whether the redirect is taken: anything
        /// but `nil` and `false` is yes, as in Lua.
        case condition
    }

    /// `global`, `group` or `route` for an interceptor or a policy, `fallback`, or
    /// `redirect` for a redirect's `when`.
    package let stage: TraceStep.Stage
    /// The interceptor's name, the group's for a policy, the `from` pattern for a
    /// redirect's `when`.
    package let name: String
    /// `file.lua:12`, `swift`, or `async`.
    package let location: String
    /// Higher first, within its stage.
    package let priority: Int
    /// What a failure does: an interceptor's or a redirect's own `on_error` (Lua or
    /// Swift), else the bundle's; group policies and fallbacks declare none.
    package let onError: RuleErrorPolicy
    /// What runs.
    package let body: Body
    /// How the decider reads what the step returns: by its stage.
    package let kind: Kind
    /// Registration order, the last tie-break: Lua rules in declaration order, then
    /// Swift interceptors in the order given.
    package let order: Int

    package init(
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
        kind =
            switch stage {
            case .fallback: .fallback
            case .redirect: .condition
            default: .interceptor  // global, group, route
            }
    }

    /// Whether `self` runs before `other` in the same stage: higher priority first,
    /// then registration order.
    package func runsBefore(_ other: PolicyStep) -> Bool {
        priority != other.priority ? priority > other.priority : order < other.order
    }
}
