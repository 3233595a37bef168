public import Junction

/// A kill switch as the store keeps it: the `pin_embedded` channel pointer that was
/// verified, byte for byte, and its identity — the seq the ratchet moved to and the artifact
/// it names (which the device does not fetch). While it is recorded the app launches its
/// embedded bundle; the next commit of a higher seq lifts it.
public struct StoredPin: Sendable, Hashable, CustomStringConvertible {
    /// The pointer's `seq` and the artifact hash it names.
    public let identity: UpdateIdentity
    /// The signed channel pointer, byte for byte.
    public let pointer: [UInt8]

    /// A pin to store.
    /// - Parameters:
    ///   - identity: The verified pointer's identity.
    ///   - pointer: The verified pointer's bytes.
    public init(identity: UpdateIdentity, pointer: [UInt8]) {
        self.identity = identity
        self.pointer = pointer
    }

    /// `pin seq 8 (sha256 3f2a…c1d0), pointer 402 bytes`.
    public var description: String { "pin \(identity), pointer \(pointer.count) bytes" }
}
