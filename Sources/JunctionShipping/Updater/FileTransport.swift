import Foundation

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
        guard request.upload == nil else {
            throw UpdateTransportError(
                .unsupportedURL, "\(request.url.absoluteString.prefix(200)): FileTransport reads; it uploads nothing")
        }
        if Task.isCancelled { throw UpdateTransportError(.cancelled, "read \(request.url.path): cancelled") }
        let path = request.url.path
        let body: [UInt8]
        do {
            // A link is followed to the file it names; a FIFO or a device is refused unread.
            body = try POSIX.readRegularFile(
                path, followingLinks: true, limit: .prefix(count: request.maximumBytes + 1))
        } catch {
            switch error {
            case .notRegular, .systemCall(operation: "stat", _):
                throw UpdateTransportError(.notFound, "\(path): not a regular file")
            default:
                throw UpdateTransportError(.notFound, "\(path): \(error.reason)")
            }
        }
        return TransportResponse(status: 200, body: body)
    }
}
