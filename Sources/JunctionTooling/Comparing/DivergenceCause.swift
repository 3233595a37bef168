public import JunctionCore

/// What a change is put down to: the rule, declared redirect, route or dispatcher at the
/// first trace step where the two decisions part — the thing an operator opens next.
///
/// Of the two steps there, a rule or redirect — what someone wrote — goes before a route,
/// a route before a dispatcher, and a step that names none of them comes last; between two
/// of a kind, the new trace's (what tonight's bundle does) goes first. So a redirect
/// removed is the cause, not the route the URL now matches; and a route removed, where the
/// new trace says only "no route matches", is the old route. Where a rule is written is
/// part of the cause, not its time or instructions: the same rule parting many requests
/// is one cause.
///
/// ```swift
/// if let change = DecisionChange(old: yesterday.decide(request), new: tonight.decide(request)) {
///     print(change.cause)  // rule "checkout-rollout" (rollout.lua:3)
/// }
/// ```
public struct DivergenceCause: Sendable, Hashable, CustomStringConvertible {
    /// What kind of thing the parting step ran.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A Lua (or Swift) rule: an interceptor, a group policy, a fallback.
        case rule
        /// A declared `redirect{…}` (its `when` included), or the router's undefined-route handler.
        case redirect
        /// A route: the one matched, or checked for access.
        case route
        /// A dispatcher a whole scheme is handed to.
        case dispatcher
        /// A pipeline step that names none of the above (the parse, the decision's end),
        /// or traces that do not part at all.
        case step

        /// Which of two parting steps explains the change better: lower first.
        fileprivate var precedence: Int {
            switch self {
            case .rule, .redirect: 0
            case .route: 1
            case .dispatcher: 2
            case .step: 3
            }
        }
    }

    /// What kind of thing it is.
    public var kind: Kind
    /// The stage of the parting step; `nil` when the traces do not part.
    public var stage: TraceStep.Stage?
    /// The rule's, route's or dispatcher's name, or a redirect's `from` pattern; `nil` for
    /// a rule without one (a fallback) and for ``Kind/step``.
    public var name: String?
    /// Where the rule or redirect is written, `policies.lua:12`; `nil` for routes,
    /// dispatchers and steps.
    public var location: String?

    /// A cause from its parts.
    /// - Parameters:
    ///   - kind: What kind of thing it is.
    ///   - stage: The parting step's stage.
    ///   - name: Its name, if it has one.
    ///   - location: Where it is written, if it is a rule or redirect.
    public init(kind: Kind, stage: TraceStep.Stage?, name: String? = nil, location: String? = nil) {
        self.kind = kind
        self.stage = stage
        self.name = name
        self.location = location
    }

    /// The cause of a change whose traces part at `divergence` (`nil`: they do not part).
    /// - Parameter divergence: Where the two traces part.
    public init(_ divergence: TraceDivergence?) {
        let steps = [divergence?.new, divergence?.old].compactMap { $0 }
        // `min` keeps the first of equals: the new step, between two of a kind.
        guard let step = steps.min(by: { Self.kind(of: $0).precedence < Self.kind(of: $1).precedence }) else {
            self.init(kind: .step, stage: nil)
            return
        }
        let kind = Self.kind(of: step)
        switch kind {
        case .rule, .redirect: self.init(kind: kind, stage: step.stage, name: step.name, location: step.location)
        case .route, .dispatcher: self.init(kind: kind, stage: step.stage, name: step.name)
        case .step: self.init(kind: .step, stage: step.stage)
        }
    }

    /// What a step ran, as far as it names it.
    private static func kind(of step: TraceStep) -> Kind {
        switch step.stage {
        case .redirect: return step.name != nil || step.location != nil ? .redirect : .step
        case .global, .group, .route, .fallback: return step.name != nil || step.location != nil ? .rule : .step
        case .match, .access: return step.name != nil ? .route : .step
        case .handOver: return step.name != nil ? .dispatcher : .step
        case .parse, .decision: return .step
        }
    }

    /// `rule "checkout-rollout" (rollout.lua:3)`, `rule fallback.lua:2` (a rule without a
    /// name), `redirect myapp://live/:room (redirects.lua:18)`, `route checkout.v2`,
    /// `dispatcher https`, `the parse step`, `traces alike`.
    public var description: String {
        switch kind {
        case .rule:
            guard let name else { return "rule " + (location ?? "without a name") }
            return "rule \"\(name)\"" + (location.map { " (\($0))" } ?? "")
        case .redirect:
            return "redirect " + (name ?? "") + (location.map { " (\($0))" } ?? "")
        case .route:
            return "route " + (name ?? "")
        case .dispatcher:
            return "dispatcher " + (name ?? "")
        case .step:
            return stage.map { "the \($0.rawValue) step" } ?? "traces alike"
        }
    }
}
