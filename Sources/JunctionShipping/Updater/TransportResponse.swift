/// What the host answered: the status, the body (at most the request's
/// ``TransportRequest/maximumBytes`` plus one), the ETag and the `Retry-After` it sent.
public struct TransportResponse: Sendable, Hashable {
    /// The HTTP status; `200` for a `file://` read.
    public var status: Int
    /// The body, cut at one byte past the request's limit; empty unless the status is `200`.
    public var body: [UInt8]
    /// The `ETag` header, as sent (quotes and `W/` included), when it is at most
    /// ``maximumETagBytes`` of visible ASCII; otherwise `nil`, and nothing is remembered.
    public var etag: String?
    /// How long the server asked the device to wait (`Retry-After`, seconds or an HTTP date),
    /// when it said.
    public var retryAfter: Duration?

    /// The longest ETag kept: a validator is sent back and persisted, so a server cannot
    /// make it large.
    public static let maximumETagBytes = 256

    /// A response.
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - body: The body, at most the limit plus one byte.
    ///   - etag: The ETag, if sent and usable.
    ///   - retryAfter: The wait the server asked for.
    public init(status: Int, body: [UInt8] = [], etag: String? = nil, retryAfter: Duration? = nil) {
        self.status = status
        self.body = body
        self.etag = etag
        self.retryAfter = retryAfter
    }
}
