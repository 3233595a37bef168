public import Junction

/// One accepted update as the store keeps it: its identity and the exact bytes that were
/// verified — the channel pointer and the artifact — never re-serialised, so re-verifying
/// them at launch checks the same signatures that were checked when they arrived.
public struct StoredUpdate: Sendable, Hashable, CustomStringConvertible {
    /// The pointer's `seq` and the artifact's SHA-256.
    public let identity: UpdateIdentity
    /// The signed channel pointer, byte for byte.
    public let pointer: [UInt8]
    /// The `.jbundle` artifact, byte for byte; its SHA-256 is `identity.artifactSHA256`.
    public let artifact: [UInt8]

    /// An update to store.
    /// - Parameters:
    ///   - identity: The update's identity; ``BundleStore/commit(_:)`` refuses it unless the
    ///     artifact hashes to `identity.artifactSHA256`.
    ///   - pointer: The verified pointer's bytes.
    ///   - artifact: The verified artifact's bytes.
    public init(identity: UpdateIdentity, pointer: [UInt8], artifact: [UInt8]) {
        self.identity = identity
        self.pointer = pointer
        self.artifact = artifact
    }

    /// `seq 7 (sha256 3f2a…c1d0), artifact 48213 bytes, pointer 402 bytes`: for logs and
    /// test failures, which should not print the bytes themselves.
    public var description: String {
        "\(identity), artifact \(artifact.count) bytes, pointer \(pointer.count) bytes"
    }
}
