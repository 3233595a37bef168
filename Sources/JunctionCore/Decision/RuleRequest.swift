/// A request as rules read it (`req` in Lua, the first argument of a Swift
/// interceptor): the URL and its parts, the parameters, the options, who asked and,
/// once matched, the route.
///
/// Parts are computed when read, so a rule that reads only `req.path` costs only that.
///
/// `RuleRequest` has value semantics; its fields live in one shared box, so handing it
/// to rule after rule costs one reference count, not one per field.
public struct RuleRequest: Sendable {
    private struct Fields: Sendable {
        let request: RouteRequest
        let target: Target
        let rewrites: [String: RuleValue]
    }

    /// What the request is about: a match (which holds the URL, the route and the path
    /// parameters), or a URL without a route. The match and the caller's request are
    /// kept whole rather than taken apart field by field: a request is made for every
    /// rule step, and each field copied out would be a reference count there.
    private enum Target: Sendable {
        case matched(RouteMatch)
        case unmatched(URI, PathParameters, plusAsSpace: Bool)
    }

    private let storage: CopyOnWrite<Fields>

    /// The URL.
    public var uri: URI {
        switch storage.fields.target {
        case .matched(let match): match.uri
        case .unmatched(let uri, _, _): uri
        }
    }
    /// Who asked.
    public var source: RequestSource { storage.fields.request.source }
    /// The caller's non-business options.
    public var exts: [String: RuleValue] { storage.fields.request.exts }
    /// The caller's extra parameters.
    public var callerParams: [String: RuleValue] { storage.fields.request.params }
    /// The route the URL matched; `nil` before matching (a redirect's `when`) and for
    /// fallbacks.
    public var route: Route? {
        if case .matched(let match) = storage.fields.target { return match.route }
        return nil
    }
    /// The path parameters the pattern captured (the route's, or a redirect's `from`).
    public var pathParameters: PathParameters {
        switch storage.fields.target {
        case .matched(let match): match.parameters
        case .unmatched(_, let parameters, _): parameters
        }
    }
    /// Parameters that rules changed with `rewrite`, applied last.
    public var rewrites: [String: RuleValue] { storage.fields.rewrites }
    /// Whether `+` in the query is a space (the route table's option).
    public var plusAsSpace: Bool {
        switch storage.fields.target {
        case .matched(let match): match.plusAsSpace
        case .unmatched(_, _, let plusAsSpace): plusAsSpace
        }
    }

    /// A request before or without a route.
    /// - Parameters:
    ///   - uri: The URL.
    ///   - request: The caller's request (parameters, options, source).
    ///   - pathParameters: Parameters a pattern captured.
    ///   - plusAsSpace: Whether `+` in the query is a space.
    public init(
        uri: URI, request: RouteRequest, pathParameters: PathParameters = PathParameters(), plusAsSpace: Bool = true
    ) {
        storage = CopyOnWrite(
            Fields(
                request: request, target: .unmatched(uri, pathParameters, plusAsSpace: plusAsSpace), rewrites: [:]))
    }

    /// A request that matched a route.
    /// - Parameters:
    ///   - match: The match.
    ///   - request: The caller's request.
    ///   - rewrites: Parameters rules have changed so far.
    public init(match: RouteMatch, request: RouteRequest, rewrites: [String: RuleValue] = [:]) {
        storage = CopyOnWrite(Fields(request: request, target: .matched(match), rewrites: rewrites))
    }

    /// Whether `other` is this very request (a copy of the same value), not merely an equal
    /// one: a constant-time test for callers that hand one request to rule after rule.
    package func isIdentical(to other: RuleRequest) -> Bool { storage.isIdentical(to: other.storage) }

    /// The identity ``isIdentical(to:)`` compares: equal for copies of this request, and
    /// never another request's while a copy of this one is alive.
    package var identity: ObjectIdentifier { storage.identity }

    /// The whole URL.
    public var url: String { uri.string }
    /// The scheme, `""` for a relative URL.
    public var scheme: String { uri.scheme ?? "" }
    /// The host, decoded; `""` when there is none.
    public var host: String { uri.host ?? "" }
    /// The path, decoded.
    public var path: String { uri.path }
    /// The path's segments, each decoded once.
    public var segments: [String] { uri.pathSegments }

    /// The query: each name's first value, decoded.
    public var query: [String: RuleValue] {
        var fields: [String: RuleValue] = [:]
        for item in uri.queryItems(plusAsSpace: plusAsSpace) where fields[item.name] == nil {
            fields[item.name] = .string(item.value)
        }
        return fields
    }

    /// The parameters, later sources winning: the path parameters (converted to their
    /// declared types), declared parameters found in the query or given a default, the
    /// caller's parameters, then rewrites.
    public var params: [String: RuleValue] {
        // Built from the lowest precedence up, each source overwriting the one before, as
        // `param(_:)` reads them — without a set of names or a lookup per name.
        let declarations = route?.parameters ?? []
        var params: [String: RuleValue] = [:]
        for parameter in pathParameters where params[parameter.name] == nil {
            let declaration = declarations.first { $0.name == parameter.name }
            params[parameter.name] =
                declaration.flatMap { $0.type.convert(parameter.value).map(RuleValue.init) }
                ?? .string(parameter.value)
        }
        if !declarations.isEmpty {
            var query: QueryItems?
            // A name declared twice takes its first declaration, as `param(_:)` does.
            for (position, declaration) in declarations.enumerated()
            where params[declaration.name] == nil
                && !declarations[..<position].contains(where: { $0.name == declaration.name })
            {
                if query == nil { query = uri.queryItems(plusAsSpace: plusAsSpace) }
                if let text = query?.first(declaration.name) {
                    params[declaration.name] = declaration.type.convert(text).map(RuleValue.init) ?? .string(text)
                } else if let value = declaration.defaultValue {
                    params[declaration.name] = RuleValue(value)
                }
            }
        }
        let callerParams = callerParams
        if !callerParams.isEmpty { params.merge(callerParams) { _, caller in caller } }
        if !rewrites.isEmpty { params.merge(rewrites) { _, rewrite in rewrite } }
        return params
    }

    /// One parameter, as ``params`` would give it, without building the others.
    /// - Parameter name: The parameter's name.
    /// - Returns: Its value, or `nil`.
    public func param(_ name: String) -> RuleValue? {
        param(name) { uri.queryItems(plusAsSpace: plusAsSpace).first($0) }
    }

    /// One parameter, reading the query through `firstQueryValue` — for callers that
    /// read many parameters of one request and parse its query once (``firstQueryValues``).
    package func param(_ name: String, firstQueryValue: (String) -> String?) -> RuleValue? {
        if !storage.fields.rewrites.isEmpty, let value = storage.fields.rewrites[name] { return value }
        if !storage.fields.request.params.isEmpty, let value = storage.fields.request.params[name] { return value }
        let declaration = route?.parameters.first { $0.name == name }
        if let text = pathParameters[name] {
            return declaration.flatMap { $0.type.convert(text).map(RuleValue.init) } ?? .string(text)
        }
        guard let declaration else { return nil }
        if let text = firstQueryValue(name) {
            return declaration.type.convert(text).map(RuleValue.init) ?? .string(text)
        }
        return declaration.defaultValue.map(RuleValue.init)
    }

    /// What ``param(_:)`` gives for the name whose UTF-8 bytes are `name` when that is a
    /// path parameter's text as captured — no rewrite and no caller's parameters, no
    /// declared parameters on the route — found without making a string of the name (a
    /// rule reads `req.params.id` on every request). `nil` when it is anything else: then
    /// ask ``param(_:firstQueryValue:)``.
    /// - Parameter name: The parameter's name, as UTF-8.
    /// - Returns: The captured text.
    package func capturedText(named name: UnsafeRawBufferPointer) -> String? {
        guard storage.fields.rewrites.isEmpty, storage.fields.request.params.isEmpty,
            route?.parameters.isEmpty ?? true
        else { return nil }
        for parameter in pathParameters
        where parameter.name.utf8.count == name.count && parameter.name.utf8.elementsEqual(name) {
            return parameter.value
        }
        return nil
    }

    /// Each query name's first value, decoded: the query parsed once, for callers that
    /// look many names up.
    package var firstQueryValues: [String: String] {
        var values: [String: String] = [:]
        for item in uri.queryItems(plusAsSpace: plusAsSpace) where values[item.name] == nil {
            values[item.name] = item.value
        }
        return values
    }

    /// The length of the query as written, in bytes: what parsing it costs.
    package var queryLength: Int { uri.percentEncodedQuery?.utf8.count ?? 0 }

    /// The route as rules read `req.route`: name, pattern, target, groups, exported.
    package var routeFields: [String: RuleValue]? {
        guard let route else { return nil }
        return [
            "name": .string(route.name), "pattern": .string(route.pattern), "target": .string(route.target),
            "groups": .array(route.groups.map(RuleValue.string)), "exported": .bool(route.isExported),
            "meta": .table(route.meta),
        ]
    }
}

extension RuleValue {
    /// A route parameter's value.
    /// - Parameter value: The converted parameter.
    public init(_ value: ParameterValue) {
        switch value {
        case .string(let text), .uuid(let text): self = .string(text)
        case .int(let number): self = .int(Int64(number))
        case .double(let number): self = .double(number)
        case .bool(let flag): self = .bool(flag)
        }
    }
}
