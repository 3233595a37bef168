/// One published update as a device knows it: the sequence number of the channel pointer
/// that announced it and the SHA-256 of the artifact that pointer names.
///
/// The device's ratchet is the identity it last accepted (a pointer must come later —
/// ``isLater(than:)``: a higher `epoch`, or the same and a greater `seq` — or carry the same
/// epoch, `seq` and artifact); the updates it refused are remembered by identity so the same
/// one is never tried twice, while a newer `seq` still is.
public struct UpdateIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The pointer's seq epoch: 0 unless the pointer was signed by a key of a later one.
    public let epoch: UInt64
    /// The pointer's sequence number: strictly increasing per channel within an epoch.
    public let seq: UInt64
    /// The artifact's SHA-256, 64 lowercase hex digits.
    public let artifactSHA256: String

    /// An update's identity.
    /// - Parameters:
    ///   - epoch: The pointer's seq epoch; 0 by default.
    ///   - seq: The pointer's sequence number.
    ///   - artifactSHA256: The artifact's SHA-256 in lowercase hex.
    public init(epoch: UInt64 = 0, seq: UInt64, artifactSHA256: String) {
        self.epoch = epoch
        self.seq = seq
        self.artifactSHA256 = artifactSHA256
    }

    /// Whether this identity's pointer comes after `other`'s: a higher epoch, or the same
    /// epoch and a greater seq. The artifact plays no part.
    /// - Parameter other: The identity to compare with.
    /// - Returns: `true` when a device holding `other` may move on to this one.
    public func isLater(than other: UpdateIdentity) -> Bool {
        (epoch, seq) > (other.epoch, other.seq)
    }

    /// `seq 7 (sha256 3f2a…c1d0)`, or `epoch 1 seq 7 (…)` above epoch 0: the sequence
    /// number and the hash's first and last digits.
    public var description: String {
        let hash = artifactSHA256
        let short = hash.count > 12 ? "\(hash.prefix(4))…\(hash.suffix(4))" : hash
        return (epoch > 0 ? "epoch \(epoch) " : "") + "seq \(seq) (sha256 \(short))"
    }
}
