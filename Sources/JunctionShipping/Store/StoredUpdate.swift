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
    /// What this device accepted it under (an acceptance stamp: 64 lowercase hex digits,
    /// kept in a file of its own), so a launch need not run its self-tests and the app's
    /// invariants again; `nil` when it has not been stamped, or its stamp file is missing or
    /// damaged. See ``UpdateAcceptance/stamp(artifactSHA256:pointer:)``.
    public let acceptance: String?
    /// Whether the store read `artifact` and checked that it hashes to
    /// `identity.artifactSHA256` (so a launch need not hash it again); not part of what
    /// makes two stored updates equal.
    package let artifactHashChecked: Bool

    /// An update to store.
    /// - Parameters:
    ///   - identity: The update's identity; ``BundleStore/commit(_:)`` refuses it unless the
    ///     artifact hashes to `identity.artifactSHA256`.
    ///   - pointer: The verified pointer's bytes.
    ///   - artifact: The verified artifact's bytes.
    ///   - acceptance: Its acceptance stamp, when the device accepted it.
    public init(identity: UpdateIdentity, pointer: [UInt8], artifact: [UInt8], acceptance: String? = nil) {
        self.identity = identity
        self.pointer = pointer
        self.artifact = artifact
        self.acceptance = acceptance
        artifactHashChecked = false
    }

    /// An update the store read, its artifact's SHA-256 checked against its identity.
    init(identity: UpdateIdentity, pointer: [UInt8], checkedArtifact artifact: [UInt8], acceptance: String?) {
        self.identity = identity
        self.pointer = pointer
        self.artifact = artifact
        self.acceptance = acceptance
        artifactHashChecked = true
    }

    /// Equal when the identity, both files' bytes and the stamp are.
    public static func == (lhs: StoredUpdate, rhs: StoredUpdate) -> Bool {
        lhs.identity == rhs.identity && lhs.pointer == rhs.pointer && lhs.artifact == rhs.artifact
            && lhs.acceptance == rhs.acceptance
    }

    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
        hasher.combine(pointer)
        hasher.combine(artifact)
        hasher.combine(acceptance)
    }

    /// `seq 7 (sha256 3f2a…c1d0), artifact 48213 bytes, pointer 402 bytes`: for logs and
    /// test failures, which should not print the bytes themselves.
    public var description: String {
        "\(identity), artifact \(artifact.count) bytes, pointer \(pointer.count) bytes"
    }
}
