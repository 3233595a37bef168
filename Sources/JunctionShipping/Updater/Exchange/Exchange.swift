import Foundation
import JunctionCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request of ``URLSessionTransport`` in flight: the body so far, and the one answer it
/// gives — whichever comes first of the response ending, the body passing its limit, the
/// deadline, and cancellation. Every later event is ignored.
final class Exchange: Sendable {
    typealias Answer = Result<TransportResponse, UpdateTransportError>

    private struct State {
        var continuation: CheckedContinuation<Answer, Never>?
        var pending: Answer?
        var answered = false
        var status = 0
        var etag: String?
        var retryAfter: Duration?
        var body: [UInt8] = []
    }

    let request: TransportRequest
    private let task: URLSessionDataTask
    private let state = Locked(State())

    init(request: TransportRequest, task: URLSessionDataTask) {
        self.request = request
        self.task = task
    }

    /// Waits for the answer: resumes `continuation` once, now if it is already known.
    func start(_ continuation: CheckedContinuation<Answer, Never>) {
        let early: Answer? = state.withLock {
            if let pending = $0.pending { return pending }
            $0.continuation = continuation
            return nil
        }
        if let early {
            continuation.resume(returning: early)
        } else {
            task.resume()
        }
    }

    /// The headers arrived: a status other than 200 is the whole answer.
    func received(_ response: URLResponse) -> Bool {
        guard let http = response as? HTTPURLResponse else {
            answer(.failure(UpdateTransportError(.badResponse, "\(describe): not an HTTP response")))
            return false
        }
        let now = Date()
        let keepGoing = state.withLock {
            $0.status = http.statusCode
            $0.etag = ResponseHeaders.etag(http.value(forHTTPHeaderField: "ETag"))
            $0.retryAfter = ResponseHeaders.retryAfter(http.value(forHTTPHeaderField: "Retry-After"), now: now)
            return http.statusCode == 200
        }
        if !keepGoing { finish() }
        return keepGoing
    }

    /// A piece of the body: kept up to one byte past the limit, where the answer is given.
    func received(_ data: Data) {
        let full = state.withLock {
            let room = request.maximumBytes + 1 - $0.body.count
            $0.body.append(contentsOf: data.prefix(max(0, room)))
            return $0.body.count > request.maximumBytes
        }
        if full { finish() }
    }

    /// The exchange ended, with `error` or not.
    func completed(_ error: (any Error)?) {
        guard let error else {
            finish()
            return
        }
        let code: UpdateTransportError.Code =
            switch (error as? URLError)?.code {
            case .timedOut?: .timedOut
            case .cancelled?: .cancelled
            case .unsupportedURL?, .badURL?: .unsupportedURL
            case .badServerResponse?, .cannotParseResponse?, .cannotDecodeRawData?: .badResponse
            default: .cannotConnect
            }
        answer(.failure(UpdateTransportError(code, "\(describe): \(error.localizedDescription)")))
    }

    /// The deadline passed.
    func expire() {
        answer(.failure(UpdateTransportError(.timedOut, "\(describe) was not over by its deadline")))
    }

    /// The calling task was cancelled.
    func cancel() {
        answer(.failure(UpdateTransportError(.cancelled, "\(describe): cancelled")))
    }

    private var describe: String { "\(request.method) \(request.url.absoluteString.prefix(200))" }

    private func finish() {
        let response = state.withLock {
            TransportResponse(
                status: $0.status, body: $0.status == 200 ? $0.body : [], etag: $0.etag, retryAfter: $0.retryAfter)
        }
        answer(.success(response))
    }

    /// Gives the answer once, and stops the task.
    private func answer(_ answer: Answer) {
        let continuation: CheckedContinuation<Answer, Never>?? = state.withLock {
            guard !$0.answered else { return .none }
            $0.answered = true
            guard let continuation = $0.continuation else {
                $0.pending = answer
                return .some(nil)
            }
            $0.continuation = nil
            return .some(continuation)
        }
        guard case .some(let waiting) = continuation else { return }
        waiting?.resume(returning: answer)
        task.cancel()
    }
}
