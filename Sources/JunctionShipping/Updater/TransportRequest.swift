public import Foundation

/// One exchange with the host: a GET of the updater — the channel pointer (with its
/// validator) or an artifact object — or, with an ``upload``, a POST of a decision-log
/// batch; each with the most bytes its answer may be and the time it must be done by.
public struct TransportRequest: Sendable, Hashable {
    /// What to get: `https://…`, `http://…` or `file://…`.
    public var url: URL
    /// The ETag of the copy the device holds, sent as `If-None-Match`; a `304` then means
    /// the channel still announces it.
    public var ifNoneMatch: String?
    /// The most body bytes wanted: the transport reads at most one more (to tell a longer
    /// body) and stops.
    public var maximumBytes: Int
    /// When the whole exchange — connecting, headers, body — must be over.
    public var deadline: ContinuousClock.Instant
    /// The body to POST; `nil` for a GET. A POST follows no redirect, and its answer's body
    /// is read only when its status is `200`, up to ``maximumBytes``.
    public var upload: TransportUpload?

    /// A request.
    /// - Parameters:
    ///   - url: What to get.
    ///   - ifNoneMatch: The validator to send, if any.
    ///   - maximumBytes: The most body bytes wanted (at least 0).
    ///   - deadline: When the exchange must be over.
    ///   - upload: The body to POST, or `nil` for a GET.
    public init(
        url: URL, ifNoneMatch: String? = nil, maximumBytes: Int, deadline: ContinuousClock.Instant,
        upload: TransportUpload? = nil
    ) {
        precondition(maximumBytes >= 0, "a byte limit is not negative")
        self.url = url
        self.ifNoneMatch = ifNoneMatch
        self.maximumBytes = maximumBytes
        self.deadline = deadline
        self.upload = upload
    }

    /// `GET` or `POST`.
    public var method: String { upload == nil ? "GET" : "POST" }
}
