public import Foundation

/// One GET the updater sends: the channel pointer (with its validator) or an artifact
/// object, each with the most bytes it may be and the time it must be done by.
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

    /// A request.
    /// - Parameters:
    ///   - url: What to get.
    ///   - ifNoneMatch: The validator to send, if any.
    ///   - maximumBytes: The most body bytes wanted (at least 0).
    ///   - deadline: When the exchange must be over.
    public init(url: URL, ifNoneMatch: String? = nil, maximumBytes: Int, deadline: ContinuousClock.Instant) {
        precondition(maximumBytes >= 0, "a byte limit is not negative")
        self.url = url
        self.ifNoneMatch = ifNoneMatch
        self.maximumBytes = maximumBytes
        self.deadline = deadline
    }
}
