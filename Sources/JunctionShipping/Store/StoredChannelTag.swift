/// The channel's ETag as the store keeps it: the validator the host sent with a channel
/// pointer the device took (installed, pinned by, or found unchanged), and the SHA-256 of
/// that pointer's bytes. The updater sends it back as `If-None-Match` only while the
/// device still holds that very pointer, so a `304` can never stand for an update a launch
/// dropped; it survives restarts, so a restart costs one `304`, not a download.
public struct StoredChannelTag: Sendable, Hashable, CustomStringConvertible {
    /// The `ETag` header as the host sent it: 1 to ``TransportResponse/maximumETagBytes``
    /// bytes of visible ASCII.
    public let etag: String
    /// The SHA-256 of the pointer bytes the ETag was sent with, in lowercase hex.
    public let pointerSHA256: String

    /// A tag to store.
    /// - Parameters:
    ///   - etag: The validator, as sent.
    ///   - pointerSHA256: The SHA-256 of the pointer it came with.
    public init(etag: String, pointerSHA256: String) {
        self.etag = etag
        self.pointerSHA256 = pointerSHA256
    }

    /// Whether `etag` is one the store keeps: 1 to 256 bytes of visible ASCII (0x21–0x7E).
    public static func isStorable(_ etag: String) -> Bool {
        (1...TransportResponse.maximumETagBytes).contains(etag.utf8.count)
            && etag.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// `etag "6b04c6f0-1a2" for pointer 3f2a…c1d0`.
    public var description: String { "etag \(etag) for pointer \(pointerSHA256.prefix(4))…\(pointerSHA256.suffix(4))" }
}
