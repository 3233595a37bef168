/// A route table read from canonical JSON this process's code validated before (an update
/// re-opened at launch under its acceptance stamp), compiled as it is used: at first only
/// skimmed — each route's place in the text, name, pattern and groups — then, for the
/// first URL of each scheme, origin and first path segment, the routes that could match
/// it (``RouteShard``) decoded and compiled into a trie of their own, as ARouter loads a
/// route group on first use. What needs every route (``RouteTable/routes``, `matches`,
/// `explain`) compiles the whole table once, and it answers from then on.
///
/// A shard holds every route that could match its URLs, in registration order, so it
/// answers them as the whole table would. What URLs can make is bounded: at most
/// ``maximumShards`` shards and twice the table's routes in all; past either, the whole
/// table is compiled and the shards let go.
final class DeferredRoutes: Sendable {
    /// What the skim read of one route: where it lies, its name and groups, and where its
    /// pattern files it.
    struct Skimmed: Sendable {
        var span: Range<Int>
        var name: String
        /// The page or task it opens, when not its name.
        var target: String?
        var groups: [String]
        var head: RouteShard.Head
    }

    /// The most shards kept before the whole table is compiled instead.
    static let maximumShards = 256

    let options: RouteTableOptions
    let skimmed: [Skimmed]
    private let names: RouteNameIndex
    private let bytes: [UInt8]
    private let file: String
    private let directory: String?
    private let limits: CanonicalJSONLimits
    /// The shards some route is filed under by its first segment (with its own scheme:
    /// `nil` for a global route), as sorted ``filingKey(scheme:origin:first:)``s. A URL of
    /// any other first segment shares its namespace's shard of routes that take any.
    private let filedSegments: [UInt64]
    private let state: Locked<State>

    private struct State {
        var routes: [Route?]
        var fileNames = SourceFileNames()
        var shards: [RouteShard: RouteTrie] = [:]
        var routesInShards = 0
        var compiled: RouteTable.Fields?
    }

    /// Skims `bytes`; `nil` when they are not a route table's canonical JSON of the usual
    /// shape (the caller reads them in full).
    init?(
        bytes: [UInt8], file: String, directory: String?, limits: CanonicalJSONLimits,
        options: (inout CanonicalJSONObject) throws(CanonicalJSONError) -> RouteTableOptions
    ) {
        var reader = CanonicalJSONReader(bytes: bytes, file: file, limits: limits)
        var skimmed: [Skimmed] = []
        var filed: [UInt64] = []
        // The options come before the routes (canonical JSON sorts keys): the patterns are
        // filed as the table reads hosts. A table without options reads them by default.
        var hostAsPath: HostAsPath?
        let document = reader.readDocument(skimming: "routes", keeping: ["name", "pattern", "groups", "target"]) {
            span, values in
            let mode = hostAsPath ?? Self.hostAsPath(in: bytes[..<span.lowerBound]) ?? RouteTableOptions().hostAsPath
            hostAsPath = mode
            guard let nameRange = values[0], let name = Self.string(in: bytes[nameRange], file: file, limits: limits),
                let patternRange = values[1],
                let head = Self.head(ofPatternIn: bytes[patternRange], file: file, limits: limits, hostAsPath: mode)
            else { return false }
            var groups: [String] = []
            if let range = values[2] {
                guard let read = Self.strings(in: bytes[range], file: file, limits: limits) else { return false }
                groups = read
            }
            var target: String?
            if let range = values[3] {
                guard let text = Self.string(in: bytes[range], file: file, limits: limits) else { return false }
                target = text
            }
            if case .filed(let scheme, let origin, .segment(let first)?) = head {
                filed.append(Self.filingKey(scheme: scheme, origin: origin, first: first))
            }
            skimmed.append(Skimmed(span: span, name: name, target: target, groups: groups, head: head))
            return true
        }
        guard let document else { return nil }
        var object = CanonicalJSONObject(
            members: document.filter { $0.key != "routes" }.sorted { $0.key < $1.key }, at: "", file: file)
        // The options read in full must read hosts as the skim filed them.
        guard let options = try? options(&object), (try? object.finish()) != nil,
            hostAsPath == nil || hostAsPath == options.hostAsPath
        else { return nil }
        filed.sort()
        self.options = options
        self.skimmed = skimmed
        names = RouteNameIndex(skimmed.lazy.map(\.name))
        self.bytes = bytes
        self.file = file
        self.directory = directory
        self.limits = limits
        filedSegments = filed
        state = Locked(State(routes: Array(repeating: nil, count: skimmed.count)))
    }

    /// How many shards are compiled, and whether the whole table is.
    var progress: (shards: Int, whole: Bool) {
        state.withLock { ($0.shards.count, $0.compiled != nil) }
    }

    /// The index of the route called `name` (the first, if several are), or `nil`.
    func index(ofRouteNamed name: String) -> Int? {
        names.index(of: name) { skimmed[$0].name }
    }

    /// The route at `index`, decoded once.
    func route(at index: Int) -> Route {
        state.withLock { route(at: index, in: &$0) }
    }

    /// The trie that answers `input`: its shard's, or the whole table's.
    func trie(for input: SearchInput) -> RouteTrie {
        guard var shard = RouteShard(input) else { return compiled().trie }
        if case .segment(let first) = shard.first, !isFiled(scheme: shard.scheme, origin: shard.origin, first: first),
            !isFiled(scheme: nil, origin: shard.origin, first: first)
        {
            shard.first = .other
        }
        if let trie = state.withLock({ $0.compiled?.trie ?? $0.shards[shard] }) { return trie }
        let built: RouteTrie? = state.withLock { state in
            if let trie = state.compiled?.trie ?? state.shards[shard] { return trie }
            let members = skimmed.indices.filter { skimmed[$0].head.covers(shard) }
            // Past either bound, nothing is decoded for the shard: the whole table answers.
            guard state.shards.count < Self.maximumShards,
                state.routesInShards + members.count <= 2 * max(skimmed.count, 1)
            else { return nil }
            let trie = trie(of: members, in: &state)
            state.shards[shard] = trie
            state.routesInShards += members.count
            return trie
        }
        return built ?? compiled().trie
    }

    /// The whole table, compiled once; the shards are let go.
    func compiled() -> RouteTable.Fields {
        state.withLock { state in
            if let compiled = state.compiled { return compiled }
            let routes = skimmed.indices.map { route(at: $0, in: &state) }
            let fields = RouteTable.Fields(
                options: options, routes: routes, trie: trie(of: skimmed.indices, in: &state),
                // Never read: a deferred table finds names by its own index.
                indexByName: [:])
            state.compiled = fields
            state.shards = [:]
            state.routes = []
            return fields
        }
    }

    /// One number for a scheme, origin and first segment (a collision only files a URL
    /// under a shard of its own where it could have shared one).
    private static func filingKey(scheme: UInt64?, origin: UInt64?, first: UInt64) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01B3
        return (((first ^ (scheme ?? 0x5f)) &* prime) ^ (origin ?? 0x6f)) &* prime
    }

    /// Whether a route is filed under this first segment (binary search).
    private func isFiled(scheme: UInt64?, origin: UInt64?, first: UInt64) -> Bool {
        let key = Self.filingKey(scheme: scheme, origin: origin, first: first)
        var (low, high) = (0, filedSegments.count)
        while low < high {
            let middle = (low + high) / 2
            if filedSegments[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < filedSegments.count && filedSegments[low] == key
    }

    /// A JSON string's text: read straight from its bytes when it has no escape (the usual
    /// case), else by the reader; `nil` when it is no string.
    private static func string(in value: ArraySlice<UInt8>, file: String, limits: CanonicalJSONLimits) -> String? {
        guard value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") else { return nil }
        let text = value.dropFirst().dropLast()
        guard text.contains(UInt8(ascii: "\\")) else { return String(decoding: text, as: UTF8.self) }
        var reader = CanonicalJSONReader(bytes: Array(value), file: file, limits: limits)
        guard case .string(let string)? = try? reader.readDocument() else { return nil }
        return string
    }

    /// The `hostAsPath` of the options that `prefix` (the text before the first route) holds,
    /// when it names one; the table's options are read in full after the skim, and a skim
    /// that filed under another mode is not used.
    private static func hostAsPath(in prefix: ArraySlice<UInt8>) -> HostAsPath? {
        let key = Array(#""hostAsPath":""#.utf8)
        guard prefix.count >= key.count else { return nil }
        var found: Int?
        for index in prefix.startIndex...(prefix.endIndex - key.count)
        where prefix[index] == key[0] && prefix[index..<(index + key.count)].elementsEqual(key) {
            found = index + key.count
            break
        }
        guard let start = found, let end = prefix[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return HostAsPath(rawValue: String(decoding: prefix[start..<end], as: UTF8.self))
    }

    /// A JSON array of strings' texts, each read straight from its bytes when there is no
    /// escape; `nil` when it is anything else.
    private static func strings(in value: ArraySlice<UInt8>, file: String, limits: CanonicalJSONLimits) -> [String]? {
        guard value.count >= 2, value.first == UInt8(ascii: "["), value.last == UInt8(ascii: "]") else { return nil }
        if value.contains(UInt8(ascii: "\\")) {
            var reader = CanonicalJSONReader(bytes: Array(value), file: file, limits: limits)
            guard case .array(let items)? = try? reader.readDocument() else { return nil }
            var texts: [String] = []
            for item in items {
                guard case .string(let text) = item else { return nil }
                texts.append(text)
            }
            return texts
        }
        // Canonical JSON: `["a","b"]`, no space; without an escape, a quote ends each string.
        var texts: [String] = []
        var i = value.startIndex + 1
        let end = value.endIndex - 1
        while i < end {
            guard value[i] == UInt8(ascii: "\""), let close = value[(i + 1)..<end].firstIndex(of: UInt8(ascii: "\""))
            else { return nil }
            texts.append(String(decoding: value[(i + 1)..<close], as: UTF8.self))
            i = close + 1
            if i < end {
                guard value[i] == UInt8(ascii: ",") else { return nil }
                i += 1
            }
        }
        return texts
    }

    /// Where the pattern whose JSON string is `value` files its route.
    private static func head(
        ofPatternIn value: ArraySlice<UInt8>, file: String, limits: CanonicalJSONLimits, hostAsPath: HostAsPath
    ) -> RouteShard.Head? {
        guard value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") else { return nil }
        let text = value.dropFirst().dropLast()
        if !text.contains(UInt8(ascii: "\\")) {
            return text.withUnsafeBufferPointer { RouteShard.head(of: $0, hostAsPath: hostAsPath) }
        }
        return string(in: value, file: file, limits: limits).map { RouteShard.head(of: $0, hostAsPath: hostAsPath) }
    }

    /// The trie of the routes at `indices` (ascending), decoded as needed. Every pattern
    /// parsed when the table was validated; one that does not now would be a route no URL
    /// reaches, and is left out.
    private func trie(of indices: some Sequence<Int>, in state: inout State) -> RouteTrie {
        var routes: [Route] = []
        var patterns: [RoutePattern] = []
        var kept: [Int32] = []
        for index in indices {
            let route = route(at: index, in: &state)
            guard
                let pattern = try? RoutePattern(
                    route.pattern, hostAsPath: options.hostAsPath, maximumExpansions: options.maximumExpansionsPerRoute)
            else { continue }
            routes.append(route)
            patterns.append(pattern)
            kept.append(Int32(index))
        }
        return RouteTrie(routes: routes, patterns: patterns, indices: kept, caseSensitive: options.caseSensitive)
    }

    private func route(at index: Int, in state: inout State) -> Route {
        if let compiled = state.compiled { return compiled.routes[index] }
        if let route = state.routes[index] { return route }
        let route = decode(index, fileNames: &state.fileNames)
        state.routes[index] = route
        return route
    }

    /// The route at `index`, read from its own bytes as the whole table's reader reads it.
    private func decode(_ index: Int, fileNames: inout SourceFileNames) -> Route {
        let item = skimmed[index]
        var reader = CanonicalJSONReader(bytes: Array(bytes[item.span]), file: file, limits: limits)
        let path = "routes[\(index)]"
        if let value = try? reader.readDocument(),
            let object = try? CanonicalJSONObject(value, at: path, file: file, what: "a route"),
            let route = try? Route(canonicalJSON: object, file: file, directory: directory, fileNames: &fileNames)
        {
            return route
        }
        // These bytes decoded when the table was validated, by this code: unreachable. A
        // route of the skim's name that no URL reaches, rather than a trap.
        return Route(name: item.name, pattern: "/\u{1}unreadable", groups: item.groups)
    }
}
