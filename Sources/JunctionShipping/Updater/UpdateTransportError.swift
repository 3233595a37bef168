/// Why the host gave nothing usable: it could not be reached, the exchange ran past its
/// deadline, the task was cancelled, or it answered with a status other than `200`/`304`
/// (``Code/status``, made by the updater). The updater reports it as unreachable and backs off.
public struct UpdateTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Sendable, Hashable, CustomStringConvertible {
        /// The host could not be reached: no route, refused, reset, DNS, TLS.
        case cannotConnect
        /// The exchange was not over by the request's deadline (a server that drips bytes).
        case timedOut
        /// The updater was cancelled mid-exchange.
        case cancelled
        /// A `file://` URL names nothing readable.
        case notFound
        /// The URL's scheme is not one the transport speaks.
        case unsupportedURL
        /// The response could not be read as HTTP.
        case badResponse
        /// The server answered with a status other than `200` or `304` (``UpdateTransportError/status``).
        case status

        /// The raw value: `cannotConnect`, `timedOut`, ….
        public var description: String { rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// What the transport knows: the URL and the underlying error, for logs.
    public let message: String
    /// The HTTP status, for ``Code/status``.
    public let status: Int?

    /// An error.
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - message: The detail.
    ///   - status: The HTTP status, for ``Code/status``.
    public init(_ code: Code, _ message: String, status: Int? = nil) {
        self.code = code
        self.message = message
        self.status = status
    }

    /// `timedOut: GET http://…/stable.json was not over within 30 s`.
    public var description: String { "\(code): \(message)" }
}
