public import JunctionCore

/// How one request's decision differs between two policies — yesterday's bundle and
/// tonight's — and where their traces part: what `junction diff` counts and shows.
///
/// Only what the app would do differently counts: the outcome (with its value, its
/// rejection, its gate, its dispatcher), the route, the parameters the target gets, the
/// URLs it went through — and a rule that fails under the new policy but not the old,
/// even when its `on_error` hides it. Timing, instruction counts and rules that ran
/// without changing anything are not changes, so two identical bundles never differ.
///
/// ```swift
/// if let change = DecisionChange(old: yesterday.decide(request), new: tonight.decide(request)) {
///     print(change.kind, change.divergence?.index ?? 0)
/// }
/// ```
public struct DecisionChange: Sendable, Hashable {
    /// What kind of change it is: one per change, the most telling (see ``Kind``).
    public var kind: Kind
    /// The first trace step where the two decisions part, when their traces differ.
    public var divergence: TraceDivergence?
    /// The rules that fail under the new policy and not under the old, by name (or
    /// location, for rules without one); empty unless ``kind`` is ``Kind/ruleNowFails``.
    public var failingRules: [String]

    /// What the change is put down to: the rule, redirect, route or dispatcher at the
    /// step where the traces part.
    public var cause: DivergenceCause { DivergenceCause(divergence) }

    /// The change from `old` to `new`, or `nil` when the app would do the same thing.
    /// - Parameters:
    ///   - old: The decision under the policy shipped now.
    ///   - new: The decision under the candidate policy, for the same request and context.
    public init?(old: Decision, new: Decision) {
        let failing = Self.failures(in: new).subtracting(Self.failures(in: old))
        let kind: Kind
        if !failing.isEmpty {
            kind = .ruleNowFails
        } else if let changed = Self.outcomeKind(old, new) {
            kind = changed
        } else {
            return nil
        }
        self.kind = kind
        self.failingRules = failing.sorted()
        self.divergence = TraceDivergence(old: old.trace, new: new.trace)
    }

    /// The kind from the outcomes, the route, the redirects and the parameters, most
    /// telling first; `nil` when all agree.
    private static func outcomeKind(_ old: Decision, _ new: Decision) -> Kind? {
        switch (old.outcome, new.outcome) {
        case (.unmatched, .unmatched):
            return sameURLs(old, new) ? nil : .redirectsChanged
        case (_, .unmatched):
            return .nowUnmatched
        case (.unmatched, _):
            return .nowMatched
        case (.reject(let before), .reject(let after)):
            if before != after { return .rejectionChanged }
            return sameURLs(old, new) ? nil : .redirectsChanged
        case (_, .reject):
            return .nowRejected
        case (.reject, _):
            return .noLongerRejected
        case (.gate(let before, let resumedBefore), .gate(let after, let resumedAfter)):
            if before != after || resumedBefore != resumedAfter { return .gateChanged }
            return sameURLs(old, new) ? nil : .redirectsChanged
        case (_, .gate):
            return .nowGated
        case (.gate, _):
            return .noLongerGated
        case (.handOver(let before), .handOver(let after)):
            if before != after || old.uri?.string != new.uri?.string { return .handedOverElsewhere }
            return sameURLs(old, new) ? nil : .redirectsChanged
        case (_, .handOver):
            return .nowHandedOver
        case (.handOver, _):
            return .noLongerHandedOver
        case (.open, .open), (.respond, .respond), (.open, .respond), (.respond, .open):
            return routeKind(old, new)
        }
    }

    /// Both decisions open a route or answer with a rule.
    private static func routeKind(_ old: Decision, _ new: Decision) -> Kind? {
        if old.match?.route.name != new.match?.route.name { return .otherRoute }
        if !sameURLs(old, new) { return .redirectsChanged }
        switch (old.outcome, new.outcome) {
        case (.open, .open):
            return same(.table(old.params), .table(new.params)) ? nil : .paramsChanged
        case (.respond(let before), .respond(let after)):
            return same(before, after) ? nil : .responseChanged
        default:
            return .outcomeChanged
        }
    }

    /// Equal values, NaN included: a rule that returns `0/0` under both policies did not change.
    private static func same(_ a: RuleValue, _ b: RuleValue) -> Bool {
        a == b || a.compactDescription == b.compactDescription
    }

    /// Whether both went through the same URLs to the same final one.
    private static func sameURLs(_ old: Decision, _ new: Decision) -> Bool {
        old.redirects == new.redirects && old.uri?.string == new.uri?.string
    }

    /// The rules that failed in `decision`: by name, else by location.
    private static func failures(in decision: Decision) -> Set<String> {
        var names: Set<String> = []
        for step in decision.trace.steps where step.error != nil && step.stage.isRule {
            names.insert(step.name ?? step.location ?? step.stage.rawValue)
        }
        return names
    }
}

extension TraceStep.Stage {
    /// Whether a rule (Lua or Swift) runs at this stage.
    var isRule: Bool {
        switch self {
        case .redirect, .fallback, .global, .group, .route: true
        case .parse, .match, .handOver, .access, .decision: false
        }
    }
}
