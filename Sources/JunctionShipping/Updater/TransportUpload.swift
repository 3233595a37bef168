/// The body of a POST: what a ``TransportRequest`` sends when it uploads a batch of the
/// decision log, with the headers that say what the body is and who sends it.
public struct TransportUpload: Sendable, Hashable {
    /// The bytes sent.
    public var body: [UInt8]
    /// The `Content-Type` (`application/x-ndjson`).
    public var contentType: String
    /// The `Content-Encoding` (`gzip`), or `nil` for none.
    public var contentEncoding: String?
    /// The bearer token sent as `Authorization: Bearer TOKEN`, or `nil` for none. Only a
    /// token of RFC 6750's characters is sent (``isBearerToken(_:)``); a transport sends no
    /// header built from anything else.
    public var bearerToken: String?

    /// An upload.
    /// - Parameters:
    ///   - body: The bytes.
    ///   - contentType: The `Content-Type`.
    ///   - contentEncoding: The `Content-Encoding`, if any.
    ///   - bearerToken: The bearer token, if any.
    public init(body: [UInt8], contentType: String, contentEncoding: String? = nil, bearerToken: String? = nil) {
        self.body = body
        self.contentType = contentType
        self.contentEncoding = contentEncoding
        self.bearerToken = bearerToken
    }

    /// Whether `token` may be sent in an `Authorization` header: RFC 6750's `b64token` —
    /// letters, digits, `-._~+/`, then `=` padding — at most 4,096 bytes. Nothing else is
    /// sent, so a token can never add a header line of its own.
    /// - Parameter token: The token.
    public static func isBearerToken(_ token: String) -> Bool {
        let bytes = Array(token.utf8)
        guard !bytes.isEmpty, bytes.count <= 4_096 else { return false }
        let body = bytes.prefix { $0 != UInt8(ascii: "=") }
        guard !body.isEmpty, bytes[body.count...].allSatisfy({ $0 == UInt8(ascii: "=") }) else { return false }
        return body.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"),
                UInt8(ascii: "/"):
                true
            default: false
            }
        }
    }

    /// The headers a transport sends for it, each checked to be visible ASCII.
    var headers: [(name: String, value: String)] {
        var headers = [("Content-Type", contentType)]
        if let contentEncoding { headers.append(("Content-Encoding", contentEncoding)) }
        if let bearerToken, Self.isBearerToken(bearerToken) {
            headers.append(("Authorization", "Bearer " + bearerToken))
        }
        return headers.filter { header in header.1.utf8.allSatisfy { (0x20...0x7E).contains($0) } }
    }
}
