/// One `open` or `invoke`, as the caller made it: the URL, extra parameters, options and
/// who asked.
public struct RouteRequest: Sendable, Hashable {
    /// The URL to open, as given.
    public var url: String
    /// Parameters beyond the URL's (rules read them in `req.params`).
    public var params: [String: RuleValue]
    /// Options that are not business parameters: presentation, animation
    /// (rules read them in `req.exts`).
    public var exts: [String: RuleValue]
    /// Who asked.
    public var source: RequestSource
    /// The URLs of the requests waiting behind gates for this one to finish, outermost
    /// first; the router fills it when it opens a gate's page. It bounds gate chains.
    public var gatedRequests: [String]

    /// A request.
    /// - Parameters:
    ///   - url: The URL to open.
    ///   - params: Extra parameters.
    ///   - exts: Non-business options.
    ///   - source: Who asked; `internal` by default.
    ///   - gatedRequests: The requests waiting behind gates for this one.
    public init(
        _ url: String, params: [String: RuleValue] = [:], exts: [String: RuleValue] = [:],
        source: RequestSource = .internal, gatedRequests: [String] = []
    ) {
        self.url = url
        self.params = params
        self.exts = exts
        self.source = source
        self.gatedRequests = gatedRequests
    }
}
