import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// HTTP and HTTPS through `URLSession` (FoundationNetworking on Linux), every cache off:
/// an ephemeral session with no URL cache, no cookies and no stored credentials, each
/// request reloading from the origin — the updater does its own conditional GETs.
///
/// Each exchange is bounded: the body is streamed and cut one byte past the request's
/// limit (the task is cancelled there, so a 10 MB answer costs 1 byte more than the cap),
/// the whole exchange — connecting, headers, body — ends at the request's deadline (a
/// server that drips one byte a second is cut off with `timedOut`), and cancelling the
/// calling task cancels the request. Redirects are followed to `http` and `https` URLs
/// only, at most 5. A status other than `200` ends the exchange at its headers.
public final class URLSessionTransport: UpdateTransport, Sendable {
    private let session: URLSession
    private let exchanges: ExchangeTable

    /// A transport with its own session.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        // The request's deadline bounds each exchange; these only stop a stuck socket.
        configuration.timeoutIntervalForRequest = 600
        configuration.timeoutIntervalForResource = 3_600
        exchanges = ExchangeTable()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: exchanges, delegateQueue: queue)
    }

    deinit { session.invalidateAndCancel() }

    /// Sends `request`.
    /// - Throws: ``UpdateTransportError``: `unsupportedURL` unless http or https,
    ///   `cannotConnect`, `timedOut` at the deadline, `cancelled`, `badResponse`.
    public func send(_ request: TransportRequest) async throws(UpdateTransportError) -> TransportResponse {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw UpdateTransportError(
                .unsupportedURL,
                "\(request.url.absoluteString.prefix(200)): URLSessionTransport speaks http and https only")
        }
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        urlRequest.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        if let tag = request.ifNoneMatch { urlRequest.setValue(tag, forHTTPHeaderField: "If-None-Match") }
        if let upload = request.upload {
            urlRequest.httpBody = Data(upload.body)
            for header in upload.headers { urlRequest.setValue(header.value, forHTTPHeaderField: header.name) }
        }
        let task = session.dataTask(with: urlRequest)
        let exchange = Exchange(request: request, task: task)
        exchanges.add(exchange, for: task.taskIdentifier)
        defer { exchanges.remove(task.taskIdentifier) }
        let deadline = request.scheduleDeadline { exchange.expire() }
        defer { deadline.cancel() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                exchange.start(continuation)
            }
        } onCancel: {
            exchange.cancel()
        }
        return try result.get()
    }
}
