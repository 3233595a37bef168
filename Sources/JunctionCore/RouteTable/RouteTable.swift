/// A validated, compiled route table: an immutable `Sendable` snapshot that matches
/// URLs in time that grows with the URL's length, not the number of routes.
///
/// Build one with ``RouteTableBuilder``, from routes in code, or load one from YAML or
/// JSON with ``RouteTable/load(contentsOf:)``.
///
/// Precedence is deterministic and independent of registration order except as the
/// last tie-break: routes of the URL's own scheme before global (scheme-less) ones;
/// then higher `priority`; then specificity segment by segment, left to right
/// (constant > constrained parameter > parameter > `*` > `**`); then registration order.
///
/// A table is one shared, immutable box: copying it costs one reference count. One read
/// from bytes validated before (``init(canonicalJSON:file:directory:limits:validatedBefore:)``)
/// compiles as URLs use it (``DeferredRoutes``) and answers alike.
public struct RouteTable: Sendable {
    struct Fields: Sendable {
        let options: RouteTableOptions
        let routes: [Route]
        let trie: RouteTrie
        let indexByName: [String: Int]
        /// The table compiling as it is used (the other fields then hold only its options
        /// and no route), or `nil` for one compiled at once.
        var deferred: DeferredRoutes? = nil
    }

    /// The compiled table; for a deferred one, its options and the deferred table. One box,
    /// so a table is still one reference to copy.
    private let storage: CopyOnWrite<Fields>
    /// The table compiling as it is used, or `nil` for one compiled at once — which then
    /// reads ``storage`` exactly as before deferred tables, behind this one `nil` check.
    private var deferred: DeferredRoutes? { storage.fields.deferred }

    /// The whole table compiled (for a deferred one, compiled now once).
    private var fields: Fields {
        if let deferred { return deferred.compiled() }
        return storage.fields
    }

    /// How the table reads URLs.
    public var options: RouteTableOptions { storage.fields.options }
    /// The routes, in registration order.
    public var routes: [Route] { storage.fields.deferred == nil ? storage.fields.routes : fields.routes }
    var trie: RouteTrie { storage.fields.deferred == nil ? storage.fields.trie : fields.trie }

    /// How many routes the table has (a deferred table counts them without compiling).
    package var count: Int { deferred?.skimmed.count ?? storage.fields.routes.count }

    /// For a table that compiles as it is used: how many shards it compiled, and whether it
    /// compiled the whole table; `nil` for one compiled at once. For tests and benchmarks.
    package var deferredProgress: (shards: Int, whole: Bool)? { deferred?.progress }

    /// The route at `index` of ``routes`` (a deferred table decodes only it).
    package func route(at index: Int) -> Route {
        if let deferred { return deferred.route(at: index) }
        return storage.fields.routes[index]
    }

    /// The name and target of the route at `index` of ``routes`` (a deferred table read
    /// them when it skimmed the text).
    package func nameAndTarget(ofRouteAt index: Int) -> (name: String, target: String) {
        if let skimmed = deferred?.skimmed[index] { return (skimmed.name, skimmed.target ?? skimmed.name) }
        let route = storage.fields.routes[index]
        return (route.name, route.target)
    }

    /// The groups of the route at `index` of ``routes`` (a deferred table read them when
    /// it skimmed the text).
    package func groups(ofRouteAt index: Int) -> [String] {
        deferred?.skimmed[index].groups ?? storage.fields.routes[index].groups
    }

    /// - Parameter indexByName: Each route's index by its name (names are unique).
    init(options: RouteTableOptions, routes: [Route], patterns: [RoutePattern], indexByName: [String: Int]) {
        storage = CopyOnWrite(
            Fields(
                options: options, routes: routes,
                trie: RouteTrie(routes: routes, patterns: patterns, caseSensitive: options.caseSensitive),
                indexByName: indexByName))
    }

    /// A table that compiles as it is used.
    init(deferred: DeferredRoutes) {
        storage = CopyOnWrite(
            Fields(
                options: deferred.options, routes: [],
                trie: RouteTrie(routes: [], patterns: [], caseSensitive: deferred.options.caseSensitive),
                indexByName: [:], deferred: deferred))
    }

    /// Validates and compiles routes.
    /// - Parameters:
    ///   - routes: The routes, in registration order.
    ///   - options: How URLs are read.
    /// - Throws: `RouteTableError` with every problem found.
    public init(routes: [Route], options: RouteTableOptions = RouteTableOptions()) throws(RouteTableError) {
        var builder = RouteTableBuilder(options: options)
        for route in routes { builder.add(route) }
        self = try builder.build()
    }

    /// The names of the parameters a pattern captures, in order (`["id", "tab"]` for
    /// `myapp://user/:id(/:tab)`).
    /// - Parameters:
    ///   - pattern: A route pattern.
    ///   - hostAsPath: When the host is the first path segment.
    /// - Returns: The names, each once; `nil` when the pattern does not parse.
    package static func parameterNames(in pattern: String, hostAsPath: HostAsPath) -> [String]? {
        guard let parsed = try? RoutePattern(pattern, hostAsPath: hostAsPath) else { return nil }
        var names: [String] = []
        for expansion in parsed.expansions {
            for case .parameter(let name, _) in expansion where !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The index in ``routes`` of the route called `name`, or `nil`.
    /// - Parameter name: A route name.
    /// - Returns: The index.
    package func index(ofRouteNamed name: String) -> Int? {
        if let deferred { return deferred.index(ofRouteNamed: name) }
        return storage.fields.indexByName[name]
    }

    /// The route called `name`, or `nil`.
    /// - Parameter name: A route name.
    /// - Returns: The route.
    public func route(named name: String) -> Route? {
        index(ofRouteNamed: name).map(route(at:))
    }

    /// The best route for a URL.
    /// - Parameter uri: The URL.
    /// - Returns: The match, or `nil` when no route matches.
    public func match(_ uri: URI) -> RouteMatch? {
        guard storage.fields.deferred == nil else { return deferredMatch(uri) }
        return storage.fields.trie.best(uri, hostAsPath: options.hostAsPath).map { makeMatch($0, uri) }
    }

    /// ``match(_:)`` of a deferred table: apart, so the compiled table's path stays as small
    /// as it was (inlined alike; measured, a shared body cost `match.junction` 15%).
    @inline(never)
    private func deferredMatch(_ uri: URI) -> RouteMatch? {
        let found = withSearchInput(uri, hostAsPath: options.hostAsPath) { input -> (RouteTrie.Hit, RouteTrie)? in
            let trie = self.trie(for: input)
            return trie.best(input).map { ($0, trie) }
        }
        return found.map { makeMatch($0.0, in: $0.1, uri) }
    }

    /// The trie that answers `input`: the table's, or a deferred table's shard.
    private func trie(for input: SearchInput) -> RouteTrie {
        deferred?.trie(for: input) ?? storage.fields.trie
    }

    /// The best route for a URL in this table and in `other`, reading the URL once — for
    /// a decider that looks for a redirect and a route alike. Both tables must read hosts
    /// alike (the same `hostAsPath`).
    /// - Parameters:
    ///   - uri: The URL.
    ///   - other: The second table.
    /// - Returns: The best match in each.
    package func match(_ uri: URI, alsoIn other: RouteTable) -> (here: RouteMatch?, other: RouteMatch?) {
        precondition(other.options.hostAsPath == options.hostAsPath, "both tables must read hosts alike")
        guard storage.fields.deferred == nil, other.storage.fields.deferred == nil else {
            return deferredMatch(uri, alsoIn: other)
        }
        let hits = RouteTrie.best(
            uri, hostAsPath: options.hostAsPath, in: storage.fields.trie, alsoIn: other.storage.fields.trie)
        return (hits.here.map { makeMatch($0, uri) }, hits.other.map { other.makeMatch($0, uri) })
    }

    /// ``match(_:alsoIn:)`` when either table is deferred (apart, as ``deferredMatch(_:)``).
    @inline(never)
    private func deferredMatch(_ uri: URI, alsoIn other: RouteTable) -> (here: RouteMatch?, other: RouteMatch?) {
        let found = withSearchInput(uri, hostAsPath: options.hostAsPath) { input in
            let (trie, otherTrie) = (self.trie(for: input), other.trie(for: input))
            return (trie.best(input).map { ($0, trie) }, otherTrie.best(input).map { ($0, otherTrie) })
        }
        return (
            found.0.map { makeMatch($0.0, in: $0.1, uri) }, found.1.map { other.makeMatch($0.0, in: $0.1, uri) }
        )
    }

    /// Parses a URL and finds its best route.
    /// - Parameter string: The URL.
    /// - Returns: The match, or `nil` when no route matches.
    /// - Throws: `URIError` when the URL does not parse.
    public func match(_ string: String) throws(URIError) -> RouteMatch? {
        match(try URI(string))
    }

    /// Every route that matches a URL, best first — for rules that decline a route and
    /// fall through to the next.
    /// - Parameter uri: The URL.
    /// - Returns: The matches in precedence order.
    public func matches(_ uri: URI) -> [RouteMatch] {
        let trie = trie
        return trie.all(uri, hostAsPath: options.hostAsPath, explain: false).hits.map { makeMatch($0, in: trie, uri) }
    }

    /// Every matching route and every route a parameter constraint turned away.
    /// - Parameter uri: The URL.
    /// - Returns: The explanation.
    public func explain(_ uri: URI) -> MatchExplanation {
        let trie = trie
        let routes = routes
        let outcome = trie.all(uri, hostAsPath: options.hostAsPath, explain: true)
        let rejections = outcome.rejections.map { rejection -> String in
            let entry = trie.entries[Int(rejection.entry)]
            let route = routes[Int(entry.route)]
            let name = entry.captures.first { $0.segment == rejection.segment }?.name ?? "?"
            let expected: String
            switch rejection.constraint {
            case .type(let type): expected = "must be \(type.rawValue)"
            case .regex(let index): expected = "must match /\(trie.regexes[Int(index)].source)/"
            }
            return
                "route \"\(route.name)\" (\(route.pattern)): parameter \"\(name)\" \(expected), got \"\(rejection.text)\""
        }
        var seen = Set<String>()
        let host = uri.host ?? ""
        let hostIsPath = !host.isEmpty && uri.hostKind == .registeredName && options.hostAsPath.treatsAsPath(host)
        let path = uri.percentEncodedPath
        return MatchExplanation(
            uri: uri, candidates: outcome.hits.map { makeMatch($0, in: trie, uri) },
            rejections: rejections.filter { seen.insert($0).inserted },
            namespaceFound: outcome.namespaceFound,
            originText: host.isEmpty || hostIsPath ? nil : host,
            routedPath: hostIsPath ? "/" + host + (path.hasPrefix("/") || path.isEmpty ? path : "/" + path) : path
        )
    }

    /// The match of `hit`, an entry of a compiled table's trie (read in place: the hot path).
    @inline(__always)
    fileprivate func makeMatch(_ hit: RouteTrie.Hit, _ uri: URI) -> RouteMatch {
        let index = Int(storage.fields.trie.entries[Int(hit.entry)].route)
        return RouteMatch(
            route: storage.fields.routes[index], uri: uri, parameters: hit.parameters,
            plusAsSpace: storage.fields.options.plusAsSpace, routeIndex: index)
    }

    /// The match of `hit`, an entry of `trie` (the table's, or a shard's).
    fileprivate func makeMatch(_ hit: RouteTrie.Hit, in trie: RouteTrie, _ uri: URI) -> RouteMatch {
        let index = Int(trie.entries[Int(hit.entry)].route)
        return RouteMatch(
            route: route(at: index), uri: uri, parameters: hit.parameters, plusAsSpace: options.plusAsSpace,
            routeIndex: index)
    }
}
