#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import JunctionShipping

/// One accepted TCP connection: reads that wait no later than a deadline, writes that do
/// not raise `SIGPIPE`, and a close that lets the client read the answer.
final class ClientConnection: Sendable {
    /// What ended a read.
    enum ReadEnd: Error {
        /// The deadline passed first.
        case timedOut
        /// The client closed its side, or the connection failed.
        case closed
    }

    private let descriptor: Int32

    /// The connection `descriptor`, closed when this goes.
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Reads what arrives, up to `maximumBytes`, waiting no later than `deadline`.
    /// - Returns: At least one byte.
    /// - Throws: ``ReadEnd``.
    func read(maximumBytes: Int, before deadline: ContinuousClock.Instant) throws(ReadEnd) -> [UInt8] {
        try wait(for: Int16(POLLIN), before: deadline)
        var buffer = [UInt8](repeating: 0, count: maximumBytes)
        let got: Int
        do {
            got = try SystemCall.retryingOnInterrupt {
                buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            }
        } catch { throw .closed }
        guard got > 0 else { throw .closed }
        buffer.removeSubrange(got...)
        return buffer
    }

    /// Sends all of `bytes`, waiting no later than `deadline`.
    /// - Throws: ``ReadEnd`` when the client stops reading or goes.
    func write(_ bytes: [UInt8], before deadline: ContinuousClock.Instant) throws(ReadEnd) {
        var sent = 0
        while sent < bytes.count {
            try wait(for: Int16(POLLOUT), before: deadline)
            do {
                sent += try SystemCall.retryingOnInterrupt {
                    bytes.withUnsafeBytes {
                        send(
                            descriptor, $0.baseAddress! + sent, $0.count - sent,
                            Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                    }
                }
            } catch  where error.code == EAGAIN || error.code == EWOULDBLOCK {
            } catch { throw .closed }
        }
    }

    /// Ends the sending side, then reads and drops what the client still sends (a refused
    /// body) until it closes, `maximumBytes` were dropped or `deadline` passes: closing with
    /// unread bytes would send a reset, which can reach the client before the answer.
    func finish(draining maximumBytes: Int, before deadline: ContinuousClock.Instant) {
        shutdown(descriptor, Int32(SHUT_WR))
        var dropped = 0
        while dropped < maximumBytes, let chunk = try? read(maximumBytes: 1 << 16, before: deadline) {
            dropped += chunk.count
        }
    }

    /// Waits until the connection can be read (`POLLIN`) or written (`POLLOUT`).
    private func wait(for events: Int16, before deadline: ContinuousClock.Instant) throws(ReadEnd) {
        while true {
            let left = deadline - .now
            guard left > .zero else { throw .timedOut }
            let milliseconds = Int32(min((left / .milliseconds(1)).rounded(.up), 60_000))
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw .closed }
        }
    }
}
