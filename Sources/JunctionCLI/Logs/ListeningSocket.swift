#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import JunctionShipping

/// The collector's TCP socket: bound, listening, and accepting with a timeout so the loop
/// that accepts can look at the clock and the stop flag between clients.
final class ListeningSocket: Sendable {
    private let descriptor: Int32
    /// The port bound (the one the system picked for port 0).
    let port: UInt16

    /// Listens on `address`.
    /// - Parameters:
    ///   - address: Where.
    ///   - backlog: Connections the kernel keeps waiting before they are accepted.
    /// - Throws: `CollectorError` when the address cannot be bound.
    init(address: ListenAddress, backlog: Int32) throws(CollectorError) {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw CollectorError("socket: \(SystemCallError(code: errno))") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = address.port.bigEndian
        socketAddress.sin_addr = address.address
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, backlog) == 0 else {
            let failure = SystemCallError(code: errno)
            close(descriptor)
            throw CollectorError("listen on \(address): \(failure); pick a free port, or 0 for any")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: socketAddress.sin_port)
    }

    deinit { close(descriptor) }

    /// The next connection, or `nil` when none came within `milliseconds`.
    func accept(waiting milliseconds: Int32) -> ClientConnection? {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, milliseconds) > 0 else { return nil }
        let client = systemAccept(descriptor)
        guard client >= 0 else { return nil }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        return ClientConnection(descriptor: client)
    }
}

/// `accept(2)`, under a name the method does not shadow.
private func systemAccept(_ descriptor: Int32) -> Int32 { accept(descriptor, nil, nil) }
