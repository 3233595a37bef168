/// Why a request was refused.
public struct Rejection: Sendable, Hashable, CustomStringConvertible {
    /// What refused it.
    public enum Cause: String, Sendable, Hashable {
        /// A rule returned `reject(reason, code?)`.
        case rule
        /// A rule failed (an error or a budget exceeded) and its `on_error` is `reject`.
        case ruleFailed = "rule_failed"
        /// The route is not `exported` and the request did not come from inside the app.
        case notExported = "not_exported"
        /// The URL does not parse.
        case invalidURL = "invalid_url"
        /// Redirects came back to a URL already visited.
        case redirectLoop = "redirect_loop"
        /// More redirects than the decider allows.
        case tooManyRedirects = "too_many_redirects"
        /// A gate would open itself or nest too deep.
        case gateLoop = "gate_loop"
        /// A redirect's target template could not be filled in.
        case invalidRedirect = "invalid_redirect"
        /// The rules of one decision, together, did more work than the decision may
        /// (`SandboxLimits.decisionInstructions`), ran longer than it may
        /// (`SandboxLimits.decisionTime`), or returned larger verdicts than it may carry
        /// (`DeciderOptions.maximumVerdictBytes`); `rule` is the one that crossed the limit.
        /// The decision ends whatever that rule's `on_error` says.
        case decisionBudget = "decision_budget"
        /// The route is `params_strict` and the request carried a parameter it does not declare.
        case undeclaredParameters = "undeclared_parameters"
    }

    /// What refused it.
    public var cause: Cause
    /// A sentence for people.
    public var reason: String
    /// A status code: the rule's own, else 403 (not exported), 400 (invalid URL,
    /// undeclared parameters),
    /// 508 (loops), 500 (a rule failed or the decision's budget ran out).
    public var code: Int?
    /// The rule that refused it or failed, when a rule did.
    public var rule: String?

    /// A rejection.
    /// - Parameters:
    ///   - cause: What refused it.
    ///   - reason: A sentence for people.
    ///   - code: A status code.
    ///   - rule: The rule's name.
    public init(_ cause: Cause, reason: String, code: Int? = nil, rule: String? = nil) {
        self.cause = cause
        self.reason = reason
        self.code = code
        self.rule = rule
    }

    /// `rejected (code) by rule: reason`.
    public var description: String {
        var text = "rejected"
        if let code { text += " (\(code))" }
        if let rule { text += " by \(rule)" }
        return text + ": " + reason
    }
}
