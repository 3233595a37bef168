/// Bounds on one decision.
public struct DeciderOptions: Sendable, Hashable {
    /// The most redirects one request may go through (declared ones and rules' verdicts
    /// together); 8 by default.
    public var maximumRedirects: Int
    /// The most gates that may wait behind one another (a gate's page itself gated); 3
    /// by default.
    public var maximumGateDepth: Int

    /// Options.
    /// - Parameters:
    ///   - maximumRedirects: The most redirects per request.
    ///   - maximumGateDepth: The most nested gates.
    public init(maximumRedirects: Int = 8, maximumGateDepth: Int = 3) {
        self.maximumRedirects = maximumRedirects
        self.maximumGateDepth = maximumGateDepth
    }
}
