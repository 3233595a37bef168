import Foundation
import JunctionCore
import JunctionShipping

/// A collector as a transport: it answers each POST as its script says, and keeps the lines
/// of the batches it took (`2xx`), inflated, by kind — what a real collector would have
/// written. For the uploader's answer table; the real collector is tested in the CLI's tests.
final class ScriptedCollector: UpdateTransport {
    /// One answer.
    enum Answer: Sendable {
        case status(Int, retryAfter: Duration? = nil)
        case unreachable
        /// The status, after a wait: a POST in flight long enough to act during it.
        case slow(Duration, Int)
    }

    private struct State {
        var script: [Answer]
        var taken: [DecisionLogKind: [String]] = [:]
        var requests: [TransportRequest] = []
    }

    private let state: Locked<State>
    /// The answer once the script is used up.
    private let otherwise: Answer

    init(_ script: [Answer] = [], otherwise: Answer = .status(204)) {
        state = Locked(State(script: script))
        self.otherwise = otherwise
    }

    /// The lines taken of `kind`, in order.
    func lines(_ kind: DecisionLogKind) -> [String] { state.withLock { $0.taken[kind] ?? [] } }

    /// The POSTs made.
    var requests: [TransportRequest] { state.withLock { $0.requests } }

    func send(_ request: TransportRequest) async throws(UpdateTransportError) -> TransportResponse {
        var answer = state.withLock { state in
            state.requests.append(request)
            return state.script.isEmpty ? otherwise : state.script.removeFirst()
        }
        if case .slow(let wait, let status) = answer {
            try? await Task.sleep(for: wait)
            answer = .status(status)
        }
        switch answer {
        case .slow: preconditionFailure("answered above")
        case .unreachable:
            throw UpdateTransportError(.cannotConnect, "POST \(request.url): connection refused")
        case .status(let status, let retryAfter):
            if (200..<300).contains(status), let upload = request.upload,
                let kind = DecisionLogKind(target: request.url.path)
            {
                let lines = Self.inflatedLines(upload.body)
                state.withLock { $0.taken[kind, default: []] += lines }
            }
            return TransportResponse(status: status, retryAfter: retryAfter)
        }
    }

    /// The lines of a gzip body.
    static func inflatedLines(_ body: [UInt8]) -> [String] {
        var text: [UInt8] = []
        var handedOut = false
        let outcome = GzipMembers().inflate(
            from: { () -> [UInt8] in
                defer { handedOut = true }
                return handedOut ? [] : body
            }, into: { text += $0 })
        precondition(outcome == .complete, "the uploader sent a body that is not whole gzip: \(outcome)")
        return String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
