import Foundation
import JunctionCore

/// `junction logs serve`'s loop: accepts connections up to the cap, serves each on a thread
/// of its own (one request, then closed), seals hour files as hours pass, and on stop waits
/// for the requests under way before it seals every file.
///
/// Threads, not tasks: a connection blocks in `poll`, `recv` and `fsync`, which must not
/// hold the cooperative pool; their number is the connection cap, so nothing queues
/// without bound (more connections wait in the kernel's backlog, or are answered 503).
final class CollectorServer: Sendable {
    /// What the collector did, for the summary it prints when it stops.
    struct Tally: Sendable {
        /// Batches written.
        var batches = 0
        /// JSON objects written.
        var lines = 0
        /// Requests answered, by status.
        var statuses: [Int: Int] = [:]
        /// Connections being served.
        var active = 0
    }

    private let socket: ListeningSocket
    private let folder: LogFolder
    private let limits: CollectorLimits
    private let token: BearerToken?
    private let tally = Locked(Tally())
    private let stopping = Locked(false)

    /// A server on `socket` writing to `folder`.
    init(socket: ListeningSocket, folder: LogFolder, limits: CollectorLimits, token: BearerToken?) {
        self.socket = socket
        self.folder = folder
        self.limits = limits
        self.token = token
    }

    /// Asks the loop to stop; safe from any thread.
    func stop() {
        stopping.withLock { $0 = true }
    }

    /// Accepts and serves until ``stop()``, then waits for the requests under way (each
    /// bounded by its timeouts) and seals every file.
    /// - Returns: What was served.
    func run() -> Tally {
        let exchange = UploadExchange(limits: limits, token: token, folder: folder)
        while !stopping.withLock({ $0 }) {
            folder.sealPast()
            guard let connection = socket.accept(waiting: 200) else { continue }
            let admitted = tally.withLock { tally in
                guard tally.active < limits.maximumConnections else { return false }
                tally.active += 1
                return true
            }
            guard admitted else {
                refuseBusy(connection)
                continue
            }
            let thread = Thread { [tally] in
                let outcome = exchange.serve(connection)
                tally.withLock { tally in
                    tally.active -= 1
                    guard let status = outcome.status else { return }
                    tally.statuses[status, default: 0] += 1
                    if status == 204 && outcome.lines > 0 {
                        tally.batches += 1
                        tally.lines += outcome.lines
                    }
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        while tally.withLock({ $0.active }) > 0 { usleep(10_000) }
        folder.sealAll()
        return tally.withLock { $0 }
    }

    /// Answers a connection past the cap with 503 on the accepting thread, waiting for
    /// nothing: what the client sent is not read.
    private func refuseBusy(_ connection: ClientConnection) {
        let response = CollectorResponse(
            status: 503,
            message: "more than \(limits.maximumConnections) connections (--max-connections); send it again shortly",
            extraFields: [("Retry-After", "1")])
        try? connection.write(response.bytes, before: .now + .milliseconds(50))
        connection.finish(draining: 0, before: .now)
        tally.withLock { $0.statuses[503, default: 0] += 1 }
    }
}
