/// One step of a decision: what ran, what it concluded, and what it cost.
public struct TraceStep: Sendable, Hashable, CustomStringConvertible {
    /// Which stage of the pipeline the step belongs to.
    public enum Stage: String, Sendable, Hashable {
        /// The URL was parsed.
        case parse
        /// A declared redirect, or a rule's redirect verdict, changed the URL.
        case redirect
        /// The route table was searched.
        case match
        /// A URL of a dispatched scheme went to its dispatcher.
        case handOver = "hand_over"
        /// A fallback rule ran for an unmatched URL.
        case fallback
        /// The route's `exported` flag was checked against the source.
        case access
        /// An interceptor for every route ran.
        case global
        /// A group policy ran.
        case group
        /// An interceptor for this route ran.
        case route
        /// The pipeline concluded.
        case decision
    }

    /// The stage.
    public var stage: Stage
    /// The rule or route concerned: an interceptor's or group's name, a route's name.
    public var name: String?
    /// Where the rule is written: `login.lua:12`, or `swift` for a Swift interceptor.
    public var location: String?
    /// What the rule returned, for steps that ran one.
    public var verdict: Verdict?
    /// What happened, in words: `matched user.profile`, `myapp://a → myapp://b`.
    public var detail: String
    /// The error a rule raised, when it failed.
    public var error: String?
    /// Wall time the step took, in nanoseconds.
    public var nanoseconds: Int
    /// Lua instructions the rule ran, counted in steps of the sandbox's
    /// `instructionInterval` (so a short rule shows 0).
    public var instructions: Int

    /// One line: `global  require_login (login.lua:3)  → continue  0.4µs`.
    public var description: String {
        var text = stage.rawValue
        if let name { text += " " + name }
        if let location { text += " (\(location))" }
        if let verdict { text += " → " + verdict.summary }
        if !detail.isEmpty { text += (verdict == nil ? ": " : "; ") + detail }
        if let error { text += " ✗ " + error }
        return text
    }
}

// The public initializer lives in an extension so that it can delegate to the
// synthesized memberwise one, which builds the step in place in its caller's memory;
// assigning field by field would build a temporary and copy it out, a retain per
// string on every step of every decision.
extension TraceStep {
    /// A step.
    /// - Parameters:
    ///   - stage: The stage.
    ///   - name: The rule or route concerned.
    ///   - location: Where the rule is written.
    ///   - verdict: What the rule returned.
    ///   - detail: What happened.
    ///   - error: The rule's error.
    ///   - nanoseconds: Time taken.
    ///   - instructions: Lua instructions run.
    public init(
        _ stage: Stage, name: String? = nil, location: String? = nil, verdict: Verdict? = nil, detail: String = "",
        error: String? = nil, nanoseconds: Int = 0, instructions: Int = 0
    ) {
        self.init(
            stage: stage, name: name, location: location, verdict: verdict, detail: detail, error: error,
            nanoseconds: nanoseconds, instructions: instructions)
    }
}
