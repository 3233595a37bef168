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

    private struct Fields: Sendable {
        var outcome: Outcome
        var request: RouteRequest
        var uri: URI?
        var match: RouteMatch?
        var redirects: [String]
        var trace: DecisionTrace
        var carriedParams: [String: RuleValue]
    }

    /// One box for all fields: a decision passes through closures and into callbacks,
    /// and each copy then costs one reference count.
    private var storage: CopyOnWrite<Fields>

    /// The conclusion.
    public var outcome: Outcome {
        get { storage.fields.outcome }
        set { storage.write { $0.outcome = newValue } }
    }
    /// The request as the caller made it.
    public var request: RouteRequest {
        get { storage.fields.request }
        set { storage.write { $0.request = newValue } }
    }
    /// The URL decided on, after redirects; `nil` when the URL did not parse.
    public var uri: URI? {
        get { storage.fields.uri }
        set { storage.write { $0.uri = newValue } }
    }
    /// The route reached, for `open`, and for `respond`, `reject` and `gate` verdicts of
    /// that route's interceptors.
    public var match: RouteMatch? {
        get { storage.fields.match }
        set { storage.write { $0.match = newValue } }
    }
    /// Every URL the request went through before ``uri``, in order.
    public var redirects: [String] {
        get { storage.fields.redirects }
        set { storage.write { $0.redirects = newValue } }
    }
    /// What happened, step by step.
    public var trace: DecisionTrace {
        get { storage.fields.trace }
        set { storage.write { $0.trace = newValue } }
    }
    /// The parameters carried beside the URL: the caller's, then a redirect verdict's,
    /// then rewrites.
    public var carriedParams: [String: RuleValue] {
        get { storage.fields.carriedParams }
        set { storage.write { $0.carriedParams = newValue } }
    }

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
        storage = CopyOnWrite(
            Fields(
                outcome: outcome, request: request, uri: uri, match: match, redirects: redirects, trace: trace,
                carriedParams: carriedParams ?? request.params))
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
