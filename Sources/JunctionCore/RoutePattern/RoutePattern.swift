/// A route pattern, parsed and expanded: `scheme://host/seg/:param/:param(regex)/*/**`
/// with optional groups — `/the(/foo/:a)(/bar/:b)` after a segment, `/(rest/)(app/):id`
/// after a "/" — expanded into every combination.
struct RoutePattern: Sendable, Hashable {
    /// The pattern as written.
    let text: String
    /// The scheme in lower case, or `nil` for a global pattern (`/user/:id`).
    let scheme: String?
    /// The origin host in lower case (`https://example.com/…`), or `nil` when the pattern
    /// has no host or its host is read as the first path segment.
    let host: String?
    /// Every expansion of the optional groups, each a list of segments; the first is the
    /// pattern with every group left out.
    let expansions: [[PatternSegment]]

    /// The most expansions one pattern may produce by default (6 independent groups):
    /// ``RouteTableOptions/maximumExpansionsPerRoute``.
    static let maximumExpansions = 64

    /// Parses a pattern.
    /// - Parameters:
    ///   - text: The pattern as written.
    ///   - hostAsPath: When the host is the first path segment.
    ///   - maximumExpansions: The most expansions the groups may make; more is refused
    ///     before they are made.
    /// - Throws: `PatternSyntaxError` naming the offset in `text`; a control character
    ///   (``ControlCharacters``) is one.
    init(_ text: String, hostAsPath: HostAsPath, maximumExpansions: Int = RoutePattern.maximumExpansions)
        throws(PatternSyntaxError)
    {
        self.text = text
        if let (scalar, offset) = ControlCharacters.first(in: text) {
            // A URL holds none raw; one in a pattern would end a line of whatever shows it.
            throw PatternSyntaxError(
                message:
                    "the control character \(ControlCharacters.name(scalar)); write it percent-encoded (\(ControlCharacters.percentEncoded(scalar))), or in a regex as \\u{\(String(scalar.value, radix: 16, uppercase: true))}",
                offset: offset)
        }
        var parser = PatternParser(text: text, maximumExpansions: maximumExpansions)
        let (scheme, authority, pathStart) = try parser.splitOrigin()
        var host: String?
        var hostSegment: String?
        if let authority {
            // A regex's "." does not make a parameter an origin: only the name is read.
            if hostAsPath.treatsAsPath(authority.hasPrefix(":") ? String(authority.prefix { $0 != "(" }) : authority) {
                hostSegment = authority
            } else {
                host = authority.lowercased()
            }
        }
        self.scheme = scheme
        self.host = host
        // The host read as a path is the same first segment in every expansion.
        let hostOffset = parser.hostOffset
        func hostPart() throws(PatternSyntaxError) -> (segment: PatternSegment, offset: Int)? {
            guard let hostSegment else { return nil }
            return (try parser.segment(hostSegment, at: hostOffset), hostOffset)
        }
        if let path = parser.plainPath(from: pathStart) {
            expansions = [try Self.checked(parser.segments(ofPlain: path, after: hostPart()))]
            return
        }
        let paths: [PatternParser.ExpandedPath]
        if parser.opensWithGroupForHost(pathStart) {
            // `scheme://(rest/):id` is `scheme://:id` or `scheme://rest/:id`: the host's
            // place is read as a path, which it can be only when hosts may be.
            guard hostAsPath != .never else {
                throw PatternSyntaxError(
                    message:
                        "an optional group cannot stand for the host while hostAsPath is never (hosts are origins); write the host out",
                    offset: pathStart)
            }
            paths = try parser.expandGroups(from: pathStart, afterSlash: true)
        } else {
            paths = try parser.expandGroups(from: pathStart)
        }
        let first = try hostPart()
        var expansions: [[PatternSegment]] = []
        expansions.reserveCapacity(paths.count)
        for path in paths {
            expansions.append(try Self.checked(parser.segments(of: path, after: first)))
        }
        self.expansions = expansions
    }

    /// How many expansions `text` makes, counted from where its groups are and how they
    /// nest, without making them — so a table can refuse a route, or itself, before paying
    /// for them.
    /// - Parameters:
    ///   - text: The pattern as written.
    ///   - hostAsPath: When the host is the first path segment.
    ///   - maximumExpansions: How deep the count follows nested groups (nesting d deep
    ///     makes at least d + 2).
    /// - Returns: The count; `Int.max` for more than an `Int` holds or nesting past the cap;
    ///   `nil` when the pattern does not parse (its parse says why).
    static func expansionCount(
        of text: String, hostAsPath: HostAsPath, maximumExpansions: Int = RoutePattern.maximumExpansions
    ) -> Int? {
        var parser = PatternParser(text: text, maximumExpansions: maximumExpansions)
        guard let (_, _, pathStart) = try? parser.splitOrigin() else { return nil }
        if parser.plainPath(from: pathStart) != nil { return 1 }
        if parser.opensWithGroupForHost(pathStart) {
            guard hostAsPath != .never else { return nil }
            return parser.expansionCount(from: pathStart, afterSlash: true)
        }
        return parser.expansionCount(from: pathStart)
    }

    /// The segments of one expansion, once `**` is known to be last and no parameter
    /// name to repeat.
    private static func checked(_ segments: [(segment: PatternSegment, offset: Int)]) throws(PatternSyntaxError)
        -> [PatternSegment]
    {
        if let index = segments.firstIndex(where: { $0.segment == .catchAll }), index != segments.count - 1 {
            throw PatternSyntaxError(
                message: "\"**\" must be the last segment; use \"*\" for one segment in the middle",
                offset: segments[index].offset)
        }
        // Patterns have a handful of parameters: a linear scan beats hashing.
        var names: [String] = []
        for (segment, offset) in segments {
            guard case .parameter(let name, _) = segment else { continue }
            if names.contains(name) {
                throw PatternSyntaxError(
                    message: "parameter \"\(name)\" appears twice; give each parameter its own name", offset: offset)
            }
            names.append(name)
        }
        return segments.map(\.segment)
    }

    /// Names of the captured parameters, in the order of the longest expansion.
    var parameterNames: [String] {
        var names: [String] = []
        for expansion in expansions {
            for case .parameter(let name, _) in expansion where !names.contains(name) {
                names.append(name)
            }
        }
        return names
    }
}

/// A pattern that does not parse: what is wrong and where in the pattern text — or, from
/// ``RouteRegex``, in the regex.
package struct PatternSyntaxError: Error, Sendable, Hashable {
    /// What is wrong and what to do.
    package let message: String
    /// UTF-8 offset into the pattern text (into the regex, from ``RouteRegex``).
    package let offset: Int
}
