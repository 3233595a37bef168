/// Bounds on one decision.
public struct DeciderOptions: Sendable, Hashable {
    /// The most redirects one request may go through (declared ones and rules' verdicts
    /// together); 8 by default.
    public var maximumRedirects: Int
    /// The most gates that may wait behind one another (a gate's page itself gated); 3
    /// by default.
    public var maximumGateDepth: Int
    /// The most bytes the verdicts of one decision's rules may carry together (rewritten
    /// parameters, responses, redirect parameters, reasons, URLs); a rule whose verdict
    /// goes past it ends the decision, rejected with cause `decision_budget`. 1 MiB by
    /// default.
    public var maximumVerdictBytes: Int
    /// The most bytes of texts and verdict values a decision's trace keeps; later steps
    /// keep their stage, rule and location but not their verdict's values or long texts,
    /// and a last step says how much was left out. 64 KiB by default.
    public var maximumTraceBytes: Int

    /// Options.
    /// - Parameters:
    ///   - maximumRedirects: The most redirects per request.
    ///   - maximumGateDepth: The most nested gates.
    ///   - maximumVerdictBytes: The most bytes of verdicts per decision.
    ///   - maximumTraceBytes: The most bytes a decision's trace keeps.
    public init(
        maximumRedirects: Int = 8, maximumGateDepth: Int = 3, maximumVerdictBytes: Int = 1 << 20,
        maximumTraceBytes: Int = 64 << 10
    ) {
        precondition(maximumVerdictBytes >= 0 && maximumTraceBytes >= 0, "bounds are not negative")
        self.maximumRedirects = maximumRedirects
        self.maximumGateDepth = maximumGateDepth
        self.maximumVerdictBytes = maximumVerdictBytes
        self.maximumTraceBytes = maximumTraceBytes
    }
}
