import Foundation
import Junction
import JunctionShipping
import JunctionCore

/// A static host in memory, for the updater's tests: files by path with nginx-like ETags and
/// `304`s, faults by path (a status, a transport error, a hang until the deadline or
/// cancellation), and a log of every request.
final class FakeHost: UpdateTransport, Sendable {
    /// What a path answers instead of its file.
    enum Fault: Sendable {
        case status(Int, retryAfter: Duration? = nil)
        case error(UpdateTransportError.Code)
        /// Never answers: the request ends at its deadline (`timedOut`) or when cancelled.
        case hang
    }

    struct Request: Sendable, Hashable {
        var path: String
        var ifNoneMatch: String?
        var maximumBytes: Int
    }

    private struct State {
        var files: [String: (body: [UInt8], etag: String)] = [:]
        var faults: [String: Fault] = [:]
        var requests: [Request] = []
        var version = 0
    }

    private let state = Locked(State())

    static let channelURL = URL(string: "https://cdn.example.com/junction/channels/stable.json")!
    static let pointerPath = "/junction/channels/stable.json"

    static func objectPath(_ sha256: String) -> String { "/junction/objects/\(sha256).jbundle" }

    /// Serves `body` at `path` under a fresh ETag.
    func put(_ path: String, _ body: [UInt8]) {
        state.withLock {
            $0.version += 1
            $0.files[path] = (body, "\"v\($0.version)-\(body.count)\"")
        }
    }

    func remove(_ path: String) { _ = state.withLock { $0.files.removeValue(forKey: path) } }

    func fault(_ path: String, _ fault: Fault?) { state.withLock { $0.faults[path] = fault } }

    /// Publishes `artifact` and `pointer` the way `junction bundle publish` lays them out.
    func publish(artifact: [UInt8], pointer: [UInt8]) {
        put(Self.objectPath(UpdateIdentity(seq: 0, artifact: artifact).artifactSHA256), artifact)
        put(Self.pointerPath, pointer)
    }

    var requests: [Request] { state.withLock { $0.requests } }

    func requests(under prefix: String) -> [Request] { requests.filter { $0.path.hasPrefix(prefix) } }

    func clearLog() { state.withLock { $0.requests = [] } }

    func send(_ request: TransportRequest) async throws(UpdateTransportError) -> TransportResponse {
        let path = request.url.path
        let (fault, file) = state.withLock {
            $0.requests.append(
                Request(path: path, ifNoneMatch: request.ifNoneMatch, maximumBytes: request.maximumBytes))
            return ($0.faults[path], $0.files[path])
        }
        switch fault {
        case .status(let status, let retryAfter)?:
            return TransportResponse(status: status, retryAfter: retryAfter)
        case .error(let code)?:
            throw UpdateTransportError(code, "GET \(request.url.absoluteString): injected")
        case .hang?:
            do { try await Task.sleep(until: request.deadline, clock: .continuous) } catch {
                throw UpdateTransportError(.cancelled, "GET \(request.url.absoluteString): cancelled")
            }
            throw UpdateTransportError(.timedOut, "GET \(request.url.absoluteString): past the deadline")
        case nil:
            break
        }
        guard let file else { return TransportResponse(status: 404) }
        if let tag = request.ifNoneMatch, tag == file.etag { return TransportResponse(status: 304, etag: file.etag) }
        return TransportResponse(status: 200, body: Array(file.body.prefix(request.maximumBytes + 1)), etag: file.etag)
    }
}
