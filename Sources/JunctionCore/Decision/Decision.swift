/// What the pipeline concluded for one request, and why (``trace``).
public struct Decision: Sendable {
    /// The conclusion.
    public enum Outcome: Sendable {
        /// Open the route of ``Decision/match`` with ``Decision/params``.
        case open
        /// A rule answered the request directly (an action route).
        case respond(RuleValue)
        /// The request is refused.
        case reject(Rejection)
        /// Open `url` first (a login page); when it finishes successfully, decide the
        /// original request again if `resume`.
        case gate(url: String, resume: Bool)
        /// The URL's scheme belongs to a dispatcher (see
        /// ``RouteTableOptions/dispatchedSchemes``): hand ``Decision/uri`` over to it.
        case handOver(scheme: String)
        /// No route, fallback or dispatcher took the URL: the host's undefined-route
        /// handler gets it.
        case unmatched
    }

    /// The conclusion.
    public var outcome: Outcome
    /// The request as the caller made it.
    public var request: RouteRequest
    /// The URL decided on, after redirects; `nil` when the URL did not parse.
    public var uri: URI?
    /// The route reached, for `open`, and for `respond`, `reject` and `gate` verdicts of
    /// that route's interceptors.
    public var match: RouteMatch?
    /// Every URL the request went through before ``uri``, in order.
    public var redirects: [String]
    /// What happened, step by step.
    public var trace: DecisionTrace
    /// The parameters carried beside the URL: the caller's, then a redirect verdict's,
    /// then rewrites.
    public var carriedParams: [String: RuleValue]

    /// A decision.
    /// - Parameters:
    ///   - outcome: The conclusion.
    ///   - request: The request.
    ///   - uri: The final URL.
    ///   - match: The route reached.
    ///   - redirects: The URLs before the final one.
    ///   - carriedParams: The parameters carried beside the URL; the request's by default.
    ///   - trace: The steps.
    public init(
        outcome: Outcome, request: RouteRequest, uri: URI?, match: RouteMatch? = nil, redirects: [String] = [],
        carriedParams: [String: RuleValue]? = nil, trace: DecisionTrace = DecisionTrace()
    ) {
        self.outcome = outcome
        self.request = request
        self.uri = uri
        self.match = match
        self.redirects = redirects
        self.carriedParams = carriedParams ?? request.params
        self.trace = trace
    }

    /// The parameters the target gets: the route's (typed by its declarations), then
    /// ``carriedParams``; without a route, ``carriedParams``.
    public var params: [String: RuleValue] {
        guard let match else { return carriedParams }
        var carried = request
        carried.params = carriedParams
        return RuleRequest(match: match, request: carried).params
    }

    /// Whether the URL changed on the way (a redirect).
    public var wasRedirected: Bool { !redirects.isEmpty }
}
