public import JunctionCore
public import JunctionLua

/// Which routes and rules a set of decisions went through: recorded decision by decision
/// (cheaply: two set insertions a step), merged across threads, then compared with a
/// bundle to tell what the corpus never exercised — the routes and rules a diff over it
/// says nothing about.
public struct PolicyExercise: Sendable, Hashable {
    /// The routes matched, by name.
    public private(set) var routes: Set<String> = []
    /// The rules that ran, by where they are written (`login.lua:12`).
    public private(set) var rules: Set<String> = []

    /// Nothing exercised yet.
    public init() {}

    /// Records the routes matched and the rules run in `decision`'s trace.
    /// - Parameter decision: A decision of the bundle to compare with later.
    public mutating func record(_ decision: Decision) {
        for step in decision.trace.steps {
            if step.stage == .match {
                if let name = step.name { routes.insert(name) }
            } else if step.stage.isRule, let location = step.location {
                rules.insert(location)
            }
        }
    }

    /// Adds what `other` exercised.
    /// - Parameter other: Another share of the same corpus.
    public mutating func merge(_ other: PolicyExercise) {
        routes.formUnion(other.routes)
        rules.formUnion(other.rules)
    }

    /// The routes of `bundle` no recorded decision matched, in the table's order.
    /// - Parameter bundle: The bundle the decisions were made under.
    /// - Returns: The routes never matched.
    public func unexercisedRoutes(of bundle: RuleBundle) -> [Route] {
        bundle.routes.routes.filter { !routes.contains($0.name) }
    }

    /// The rules of `bundle` no recorded decision ran — redirects, interceptors, group
    /// policies and fallbacks — in the order the bundle declares them, each as
    /// `interceptor order-h5-on-5.3.0 (redirects.lua:10)`.
    /// - Parameter bundle: The bundle the decisions were made under.
    /// - Returns: One line per rule never run.
    public func unexercisedRules(of bundle: RuleBundle) -> [String] {
        let declared = bundle.declarations
        var lines: [String] = []
        for redirect in declared.redirects where !rules.contains(redirect.location) {
            lines.append("redirect \(redirect.from) → \(redirect.to) (\(redirect.location))")
        }
        for interceptor in declared.interceptors where !rules.contains(interceptor.location) {
            lines.append("interceptor \(interceptor.name) (\(interceptor.location))")
        }
        for group in declared.groups where !rules.contains(group.location) {
            lines.append("group \(group.name) (\(group.location))")
        }
        for fallback in declared.fallbacks where !rules.contains(fallback.location) {
            lines.append("fallback (\(fallback.location))")
        }
        return lines
    }
}
