public import JunctionArtifact
public import Junction

/// A channel pointer whose signature verified with the app's keyring, with the exact bytes
/// it was read from (to persist as they are). Only the acceptance pipeline makes one.
public struct VerifiedPointer: Sendable, Hashable {
    /// The pointer.
    public let pointer: ChannelPointer
    /// Its exact bytes, as verified.
    public let bytes: [UInt8]

    /// The update it announces: its epoch, its seq and its artifact's SHA-256.
    public var identity: UpdateIdentity {
        UpdateIdentity(epoch: pointer.epoch, seq: pointer.seq, artifactSHA256: pointer.artifactSHA256)
    }

    /// A verified pointer.
    init(pointer: ChannelPointer, bytes: [UInt8]) {
        self.pointer = pointer
        self.bytes = bytes
    }
}
