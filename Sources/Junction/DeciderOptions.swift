public import JunctionCore

/// Bounds on one decision, and the app version bundles must fit.
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
    /// The app's version: a bundle whose `minimum_host_version` is above it is refused
    /// (``BundleError/hostTooOld``) by `Decider(bundle:)`, `Router(bundle:)` and
    /// `router.load(bundle:)`. `nil` (the default) checks nothing — tools that read
    /// bundles for every app version, like the CLI.
    public var hostVersion: SemanticVersion?

    /// Options.
    /// - Parameters:
    ///   - maximumRedirects: The most redirects per request.
    ///   - maximumGateDepth: The most nested gates.
    ///   - maximumVerdictBytes: The most bytes of verdicts per decision.
    ///   - maximumTraceBytes: The most bytes a decision's trace keeps.
    ///   - hostVersion: The app's version, to refuse bundles for newer ones.
    public init(
        maximumRedirects: Int = 8, maximumGateDepth: Int = 3, maximumVerdictBytes: Int = 1 << 20,
        maximumTraceBytes: Int = 64 << 10, hostVersion: SemanticVersion? = nil
    ) {
        precondition(maximumVerdictBytes >= 0 && maximumTraceBytes >= 0, "bounds are not negative")
        self.maximumRedirects = maximumRedirects
        self.maximumGateDepth = maximumGateDepth
        self.maximumVerdictBytes = maximumVerdictBytes
        self.maximumTraceBytes = maximumTraceBytes
        self.hostVersion = hostVersion
    }
}
