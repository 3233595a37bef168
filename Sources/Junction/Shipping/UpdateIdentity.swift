/// One published update as a device knows it: the sequence number of the channel pointer
/// that announced it and the SHA-256 of the artifact that pointer names.
///
/// The device's ratchet is the identity it last accepted (a pointer must carry a greater
/// `seq`, or the same `seq` and the same artifact); the updates it refused are remembered
/// by identity so the same one is never tried twice, while a newer `seq` still is.
public struct UpdateIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The pointer's sequence number: strictly increasing per channel.
    public let seq: UInt64
    /// The artifact's SHA-256, 64 lowercase hex digits.
    public let artifactSHA256: String

    /// An update's identity.
    /// - Parameters:
    ///   - seq: The pointer's sequence number.
    ///   - artifactSHA256: The artifact's SHA-256 in lowercase hex.
    public init(seq: UInt64, artifactSHA256: String) {
        self.seq = seq
        self.artifactSHA256 = artifactSHA256
    }

    /// `seq 7 (sha256 3f2a…c1d0)`: the sequence number and the hash's first and last digits.
    public var description: String {
        let hash = artifactSHA256
        let short = hash.count > 12 ? "\(hash.prefix(4))…\(hash.suffix(4))" : hash
        return "seq \(seq) (sha256 \(short))"
    }
}
