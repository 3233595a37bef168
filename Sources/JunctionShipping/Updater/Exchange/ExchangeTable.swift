import Foundation
import JunctionCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session's delegate: hands each task's events to its ``Exchange``, and follows a
/// redirect only to http or https, at most ``maximumRedirects`` times.
final class ExchangeTable: NSObject, URLSessionDataDelegate, Sendable {
    static let maximumRedirects = 5

    private let exchanges = Locked<[Int: (exchange: Exchange, redirects: Int)]>([:])

    func add(_ exchange: Exchange, for task: Int) { exchanges.withLock { $0[task] = (exchange, 0) } }

    func remove(_ task: Int) { _ = exchanges.withLock { $0.removeValue(forKey: task) } }

    private func exchange(_ task: URLSessionTask) -> Exchange? {
        exchanges.withLock { $0[task.taskIdentifier]?.exchange }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let proceed = exchange(dataTask)?.received(response) ?? false
        completionHandler(proceed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(dataTask)?.received(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        exchange(task)?.completed(error)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let scheme = request.url?.scheme?.lowercased()
        let allowed = exchanges.withLock { table -> Bool in
            // A POST follows none: its answer, whatever it is, ends the exchange.
            guard var entry = table[task.taskIdentifier], entry.exchange.request.upload == nil,
                scheme == "http" || scheme == "https", entry.redirects < Self.maximumRedirects
            else { return false }
            entry.redirects += 1
            table[task.taskIdentifier] = entry
            return true
        }
        // Not followed: the redirect's own status is the answer.
        completionHandler(allowed ? request : nil)
    }
}
