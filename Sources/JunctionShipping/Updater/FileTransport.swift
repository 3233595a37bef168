import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads `file://` channels: the pointer and objects of a folder laid out as
/// `junction bundle publish` writes it — an app's bundled default channel, a folder another
/// process syncs, or tests. Regular files only, read up to the request's limit plus one
/// byte and no further; no ETags, so every poll reads the pointer (a few hundred bytes).
public struct FileTransport: UpdateTransport {
    /// A transport for `file://` URLs.
    public init() {}

    /// Reads the file `request.url` names.
    /// - Throws: ``UpdateTransportError``: `unsupportedURL` for another scheme, `notFound`
    ///   for a missing, unreadable or non-regular file (a folder, a FIFO, a device), `cancelled`.
    public func send(_ request: TransportRequest) async throws(UpdateTransportError) -> TransportResponse {
        guard request.url.isFileURL else {
            throw UpdateTransportError(
                .unsupportedURL, "\(request.url.absoluteString.prefix(200)): FileTransport reads file:// URLs only")
        }
        if Task.isCancelled { throw UpdateTransportError(.cancelled, "read \(request.url.path): cancelled") }
        let path = request.url.path
        // Non-blocking, so a FIFO put in a file's place cannot hold the open.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw UpdateTransportError(.notFound, "\(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw UpdateTransportError(.notFound, "\(path): not a regular file")
        }
        let wanted = request.maximumBytes + 1
        var body = [UInt8](repeating: 0, count: min(wanted, 1 << 16))
        var count = 0
        while count < wanted {
            if count == body.count { body.append(contentsOf: repeatElement(0, count: min(wanted - count, body.count))) }
            let got = body.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if got > 0 {
                count += got
            } else if got == 0 {
                break
            } else if errno != EINTR {
                throw UpdateTransportError(.notFound, "\(path): \(String(cString: strerror(errno)))")
            }
        }
        body.removeSubrange(count...)
        return TransportResponse(status: 200, body: body)
    }
}
