/// Which URLs a route could match, read from the head of its pattern without parsing it:
/// its namespace (scheme and origin) and its first path segment — what a deferred table
/// (``DeferredRoutes``) files it under, so the first URL of a namespace and first segment
/// compiles only the routes that could match it, as ARouter loads a route group on first use.
///
/// Each part is kept as a 64-bit hash of its ASCII-lower-cased bytes (no copy of them):
/// two parts that differ but hash alike only put a route in a shard it cannot match, where
/// it never matches. Reading is conservative for the same reason: a pattern whose head is
/// anything but plain — an optional group, an escape, a non-ASCII or control byte, a
/// parameter or regex in the host — is filed *everywhere*, and one whose first segment is a
/// parameter or wildcard under *any* first segment. Filing a route under more shards than
/// it can match changes nothing; only filing it under fewer would.
struct RouteShard: Sendable, Hashable {
    /// The first path segment of the URLs it stands for: none (a URL with no path segment),
    /// one (its hash), or any that no route of the table names.
    enum First: Sendable, Hashable {
        case none
        case segment(UInt64)
        case other
    }

    /// The scheme's hash; `nil` for a relative URL.
    var scheme: UInt64?
    /// The origin host's hash; `nil` when the URL has none or reads its host as a path.
    var origin: UInt64?
    var first: First

    /// What a route's pattern says about the URLs it could match.
    enum Head: Sendable {
        /// Any URL: the head is not plain.
        case everywhere
        /// URLs of this scheme (`nil`: every scheme, a global pattern) and origin whose first
        /// segment is `first` (`nil`: any).
        case filed(scheme: UInt64?, origin: UInt64?, first: First?)

        /// Whether a route of this head could match a URL of `shard`.
        func covers(_ shard: RouteShard) -> Bool {
            guard case .filed(let scheme, let origin, let first) = self else { return true }
            if let scheme, scheme != shard.scheme { return false }
            guard origin == shard.origin else { return false }
            guard let first else { return true }
            return first == shard.first
        }
    }

    init(scheme: UInt64?, origin: UInt64?, first: First) {
        self.scheme = scheme
        self.origin = origin
        self.first = first
    }

    /// The head of `pattern` as a table reading hosts as `hostAsPath` files it.
    static func head(of pattern: String, hostAsPath: HostAsPath) -> Head {
        var pattern = pattern
        return pattern.withUTF8 { head(of: $0, hostAsPath: hostAsPath) }
    }

    /// The head of a pattern's UTF-8 bytes.
    /// Only the head is read — scheme, host, first segment — so an optional group, a regex
    /// or an escape further on files the route as usual: none of them changes the first
    /// segment (a group in the head does, and is read as one).
    static func head(of bytes: UnsafeBufferPointer<UInt8>, hostAsPath: HostAsPath) -> Head {
        func isSlash(_ index: Int) -> Bool { index < bytes.count && bytes[index] == Bytes.slash }
        var i = 0
        var scheme: UInt64?
        if bytes.first != Bytes.slash {
            // RFC 3986's scheme characters: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
            while i < bytes.count {
                let byte = bytes[i]
                guard
                    Bytes.isAlpha(byte) || Bytes.isDigit(byte) || byte == UInt8(ascii: "+")
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                else { break }
                i += 1
            }
            guard i > 0, i < bytes.count, bytes[i] == UInt8(ascii: ":"), isSlash(i + 1), isSlash(i + 2) else {
                return .everywhere
            }
            scheme = hash(UnsafeBufferPointer(rebasing: bytes[0..<i]))
            i += 1
        }
        var origin: UInt64?
        if isSlash(i), isSlash(i + 1) {
            i += 2
            let start = i
            while i < bytes.count, bytes[i] != Bytes.slash { i += 1 }
            let host = UnsafeBufferPointer(rebasing: bytes[start..<i])
            if !host.isEmpty {
                guard !host.contains(where: { isUnplain($0) || isSpecial($0) }) else { return .everywhere }
                let folded =
                    Bytes.containsUppercaseASCII(host)
                    ? host.map(Bytes.lowercased).withUnsafeBufferPointer(hostAsPath.treatsAsPath)
                    : hostAsPath.treatsAsPath(host)
                if folded { return .filed(scheme: scheme, origin: nil, first: .segment(hash(host))) }
                origin = hash(host)
            }
        }
        if i < bytes.count, bytes[i] == Bytes.slash { i += 1 }
        guard i < bytes.count else { return .filed(scheme: scheme, origin: origin, first: First.none) }
        let start = i
        while i < bytes.count, bytes[i] != Bytes.slash { i += 1 }
        let segment = UnsafeBufferPointer(rebasing: bytes[start..<i])
        guard !segment.isEmpty, !segment.contains(where: isUnplain) else { return .everywhere }
        if segment.contains(where: isSpecial) { return .filed(scheme: scheme, origin: origin, first: nil) }
        return .filed(scheme: scheme, origin: origin, first: .segment(hash(segment)))
    }

    /// The shard of a prepared URL; `nil` when its first segment is not ASCII (the whole
    /// table answers it).
    init?(_ input: SearchInput) {
        scheme = input.scheme.map(Self.hash)
        origin = input.origin.map(Self.hash)
        guard input.segments.count >= 2 else {
            first = .none
            return
        }
        let segment = UnsafeBufferPointer(rebasing: input.text[Int(input.segments[0])..<Int(input.segments[1])])
        guard !segment.contains(where: { $0 >= 0x80 }) else { return nil }
        first = .segment(Self.hash(segment))
    }

    /// FNV-1a over the bytes, ASCII lower-cased.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(Bytes.lowercased(byte))) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    /// A byte that makes the head unreadable without parsing it: a group's parenthesis, an
    /// escape, a control or non-ASCII byte.
    private static func isUnplain(_ byte: UInt8) -> Bool {
        switch byte {
        case 0..<0x20, 0x7F..., UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "%"), UInt8(ascii: "\\"): true
        default: false
        }
    }

    /// A byte that makes a segment or host more than a constant: a parameter, a wildcard,
    /// a regex, userinfo, a port, a query or a fragment.
    private static func isSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ":"), UInt8(ascii: "*"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "@"),
            UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
            UInt8(ascii: "}"):
            true
        default: false
        }
    }
}
