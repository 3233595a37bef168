/// A parsed RFC 3986 URI reference: `scheme://userinfo@host:port/path?query#fragment`.
///
/// `URI` keeps the text it was parsed from and the positions of its components, so
/// parsing allocates nothing and every component is a slice. Components come in two
/// forms: `percentEncoded…` is the text as written; the plain property is decoded
/// exactly once. Paths are decoded per segment after splitting, so `%2F` stays inside
/// its segment; the query is decoded per key and value after splitting on `&` and `=`.
///
/// Parsing validates everything decoding needs — every `%` is followed by two hex
/// digits, and what the escapes decode to is UTF-8 — so decoding a parsed `URI` never
/// fails. Two URIs are equal when their text is equal.
///
/// ```swift
/// let uri = try URI("myapp://user/42?tab=posts#top")
/// uri.scheme          // "myapp"
/// uri.host            // "user"
/// uri.pathSegments    // ["42"]
/// uri.query["tab"]    // "posts"
/// ```
public struct URI: Sendable, Hashable, CustomStringConvertible {
    /// The longest input accepted, in UTF-8 code units (1 MiB).
    public static let maximumLength = 1 << 20

    /// How closely parsing follows RFC 3986's character sets.
    public enum ParsingMode: Sendable, Hashable {
        /// RFC 3986's structure; additionally accepts characters the RFC would have
        /// percent-encoded (non-ASCII text, spaces, `"`, `{`, `|` …) as literal data in
        /// userinfo, path, query and fragment, as browsers and deep-link senders do.
        /// Control characters, invalid escapes and malformed hosts and ports are still errors.
        case lenient
        /// Every character must belong to its component's set in RFC 3986 §3.
        case strict
    }

    /// What kind of host a URI names (RFC 3986 §3.2.2).
    public enum HostKind: UInt8, Sendable, Hashable {
        /// A registered name such as `example.com`, `user` or `localhost`.
        case registeredName
        /// A dotted-decimal IPv4 address.
        case ipv4
        /// A bracketed IPv6 address, optionally with a zone (RFC 6874).
        case ipv6
        /// A bracketed `v…` literal of a future IP version.
        case ipvFuture
    }

    /// The text the URI was parsed from.
    public let string: String
    let layout: URILayout

    /// Parses a URI reference.
    /// - Parameters:
    ///   - string: The text: an absolute URI (`myapp://user/42`) or a relative
    ///     reference (`../a?b`).
    ///   - mode: How strictly characters are checked; `.lenient` by default.
    /// - Throws: `URIError` naming the problem and its offset.
    public init(_ string: String, mode: ParsingMode = .lenient) throws(URIError) {
        var text = string
        text.makeContiguousUTF8()
        let result: Result<URILayout, URIError> = text.utf8.withContiguousStorageIfAvailable { bytes in
            URIParser(bytes: bytes, input: text, strict: mode == .strict).parse()
        }!
        self.string = text
        self.layout = try result.get()
    }

    init(string: String, layout: URILayout) {
        self.string = string
        self.layout = layout
    }

    /// The URI as written.
    public var description: String { string }

    /// Whether two URIs are written the same, byte for byte (no normalization).
    public static func == (lhs: URI, rhs: URI) -> Bool { lhs.string == rhs.string }

    /// Hashes the URI as written, consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) { hasher.combine(string) }

    @inline(__always)
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        // `string` was made contiguous in `init`, so this never falls back.
        try string.utf8.withContiguousStorageIfAvailable(body)!
    }

    func slice(_ start: Int32, _ end: Int32) -> String {
        withBytes { String(decoding: UnsafeBufferPointer(rebasing: $0[Int(start)..<Int(end)]), as: UTF8.self) }
    }

    func decodedSlice(_ start: Int32, _ end: Int32, plusAsSpace: Bool = false) -> String {
        withBytes {
            PercentDecoding.decodedString(
                UnsafeBufferPointer(rebasing: $0[Int(start)..<Int(end)]), plusAsSpace: plusAsSpace)
        }
    }
}

/// Where each component of a parsed URI starts and ends, as UTF-8 offsets. `-1` marks an
/// absent component.
struct URILayout: Sendable {
    /// Offset of the `:` that ends the scheme.
    var schemeEnd: Int32 = -1
    /// Offset just after `//`; `-1` when there is no authority.
    var authorityStart: Int32 = -1
    /// Offset of the `@` that ends the userinfo.
    var userinfoEnd: Int32 = -1
    var hostStart: Int32 = -1
    var hostEnd: Int32 = -1
    /// The port's value.
    var port: Int32 = -1
    var pathStart: Int32 = 0
    var pathEnd: Int32 = 0
    /// Offset just after `?`.
    var queryStart: Int32 = -1
    /// Offset just after `#`.
    var fragmentStart: Int32 = -1
    var hostKind: URI.HostKind = .registeredName
    /// Whether the path holds a `%`, so matching can skip decoding.
    var pathHasEscapes = false
    /// Whether scheme or host hold an upper-case letter or escape, so matching can skip folding.
    var originNeedsFolding = false

    var hasAuthority: Bool { authorityStart >= 0 }
    var queryEnd: Int32 { fragmentStart >= 0 ? fragmentStart - 1 : -1 }
}
