import Crypto
import Foundation

/// An Ed25519 public key: what a device holds to check artifacts.
public struct VerificationKey: Sendable, Hashable {
    /// The raw 32-byte public key.
    public let rawRepresentation: [UInt8]

    /// The key's id: the lowercase hex of the first 8 bytes of the SHA-256 of
    /// ``rawRepresentation``.
    public let keyID: String

    /// The seq epoch whose channel pointers the key signs (``ChannelPointer/epoch``): 0 for
    /// a key made without one. A device takes a pointer of a higher epoch than the one it
    /// last accepted — starting that epoch's seq afresh — only from a key it trusts for that
    /// epoch, so trusting a key is also saying which epoch it may move devices to.
    public let epoch: UInt64

    private let key: Curve25519.Signing.PublicKey

    /// The key whose raw 32 bytes are `rawRepresentation`.
    /// - Parameters:
    ///   - rawRepresentation: The 32-byte Ed25519 public key.
    ///   - epoch: The seq epoch it signs, at most ``ChannelPointer/maximumSeq``; 0 by default.
    /// - Throws: ``ArtifactError/Code-swift.struct/badKeyFile`` when the bytes are not an
    ///   Ed25519 public key, or the epoch is too large.
    public init(rawRepresentation: [UInt8], epoch: UInt64 = 0) throws(ArtifactError) {
        guard rawRepresentation.count == 32,
            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: rawRepresentation)
        else { throw ArtifactError(.badKeyFile, "a public key is 32 bytes, not \(rawRepresentation.count)") }
        guard epoch <= ChannelPointer.maximumSeq else {
            throw ArtifactError(.badKeyFile, "a key's epoch is at most \(ChannelPointer.maximumSeq), not \(epoch)")
        }
        self.key = key
        self.epoch = epoch
        self.rawRepresentation = rawRepresentation
        self.keyID = Hex.encode(SHA256.hash(data: rawRepresentation).prefix(8))
    }

    /// Whether `signature` is this key's Ed25519 signature of `message`.
    public func isValidSignature(_ signature: ArraySlice<UInt8>, for message: ArraySlice<UInt8>) -> Bool {
        key.isValidSignature(signature, for: message)
    }

    /// Keys are equal when their raw bytes and their epochs are.
    public static func == (lhs: VerificationKey, rhs: VerificationKey) -> Bool {
        lhs.rawRepresentation == rhs.rawRepresentation && lhs.epoch == rhs.epoch
    }

    /// Hashes the raw bytes and the epoch.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawRepresentation)
        hasher.combine(epoch)
    }
}
