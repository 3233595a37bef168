/// One `open` or `invoke`, as the caller made it: the URL, extra parameters, options and
/// who asked.
public struct RouteRequest: Sendable, Hashable {
    private struct Fields: Sendable, Hashable {
        var url: String
        var params: [String: RuleValue]
        var exts: [String: RuleValue]
        var source: RequestSource
        var gatedRequests: [String]
    }

    /// One box for all fields: the pipeline hands the request along many times.
    private var storage: CopyOnWrite<Fields>

    /// The URL to open, as given.
    public var url: String {
        get { storage.fields.url }
        set { storage.write { $0.url = newValue } }
    }
    /// Parameters beyond the URL's (rules read them in `req.params`).
    public var params: [String: RuleValue] {
        get { storage.fields.params }
        set { storage.write { $0.params = newValue } }
    }
    /// Options that are not business parameters: presentation, animation
    /// (rules read them in `req.exts`).
    public var exts: [String: RuleValue] {
        get { storage.fields.exts }
        set { storage.write { $0.exts = newValue } }
    }
    /// Who asked.
    public var source: RequestSource {
        get { storage.fields.source }
        set { storage.write { $0.source = newValue } }
    }
    /// The URLs of the requests waiting behind gates for this one to finish, outermost
    /// first; the router fills it when it opens a gate's page. It bounds gate chains.
    public var gatedRequests: [String] {
        get { storage.fields.gatedRequests }
        set { storage.write { $0.gatedRequests = newValue } }
    }

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
        storage = CopyOnWrite(
            Fields(url: url, params: params, exts: exts, source: source, gatedRequests: gatedRequests))
    }

    /// Whether two requests have equal fields.
    public static func == (lhs: RouteRequest, rhs: RouteRequest) -> Bool { lhs.storage.fields == rhs.storage.fields }

    /// Hashes every field, consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) { hasher.combine(storage.fields) }
}
