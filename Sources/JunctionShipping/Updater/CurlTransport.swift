#if canImport(CCurl)
    import CCurl
    import Foundation

    /// HTTP and HTTPS through the system libcurl, every cache off, on Linux — where
    /// FoundationNetworking's `URLSession` kept receiving and buffering a body after the
    /// exchange had been answered (10 GiB streams, gzip bombs inflated by the library).
    ///
    /// Each exchange is bounded whatever the server does: the body is read one byte past the
    /// request's limit and the transfer stopped there; the whole exchange — connecting,
    /// headers, body — ends at the request's deadline; cancelling the calling task ends it at
    /// once. Once an exchange is answered — refused, full, past its deadline, cancelled — the
    /// transfer is stopped at its next callback and nothing more is kept. It asks for
    /// `identity` encoding and refuses a body in any other (`badResponse`): no decompression,
    /// so no bomb. Redirects are followed to `http` and `https` only, at most 5; a status
    /// other than `200` ends the exchange at its headers, unread.
    public final class CurlTransport: UpdateTransport, Sendable {
        /// `curl_global_init`, once per process, before the first handle.
        private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

        /// A transport.
        public init() {}

        /// Sends `request`.
        /// - Throws: ``UpdateTransportError``: `unsupportedURL` unless http or https (a
        ///   redirect included), `cannotConnect`, `timedOut` at the deadline, `cancelled`,
        ///   `badResponse` (an encoded body, an unreadable answer).
        public func send(_ request: TransportRequest) async throws(UpdateTransportError) -> TransportResponse {
            guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw UpdateTransportError(
                    .unsupportedURL,
                    "\(request.url.absoluteString.prefix(200)): CurlTransport speaks http and https only")
            }
            guard Self.initialized else {
                throw UpdateTransportError(.cannotConnect, "libcurl could not be initialized")
            }
            let exchange = CurlExchange(request: request)
            let deadline = request.scheduleDeadline { exchange.expire() }
            defer { deadline.cancel() }
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in exchange.start(continuation) }
            } onCancel: {
                exchange.cancel()
            }
            return try result.get()
        }
    }
#endif
