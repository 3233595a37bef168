import Crypto
import Foundation

/// An Ed25519 public key: what a device holds to check artifacts.
public struct VerificationKey: Sendable, Hashable {
    /// The raw 32-byte public key.
    public let rawRepresentation: [UInt8]

    /// The key's id: the lowercase hex of the first 8 bytes of the SHA-256 of
    /// ``rawRepresentation``.
    public let keyID: String

    private let key: Curve25519.Signing.PublicKey

    /// The key whose raw 32 bytes are `rawRepresentation`.
    /// - Throws: ``ArtifactError/Code-swift.struct/badKeyFile`` when the bytes are not an Ed25519 public key.
    public init(rawRepresentation: [UInt8]) throws(ArtifactError) {
        guard rawRepresentation.count == 32,
            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: rawRepresentation)
        else { throw ArtifactError(.badKeyFile, "a public key is 32 bytes, not \(rawRepresentation.count)") }
        self.key = key
        self.rawRepresentation = rawRepresentation
        self.keyID = Hex.encode(SHA256.hash(data: rawRepresentation).prefix(8))
    }

    /// Whether `signature` is this key's Ed25519 signature of `message`.
    public func isValidSignature(_ signature: ArraySlice<UInt8>, for message: ArraySlice<UInt8>) -> Bool {
        key.isValidSignature(signature, for: message)
    }

    /// Keys are equal when their raw bytes are.
    public static func == (lhs: VerificationKey, rhs: VerificationKey) -> Bool {
        lhs.rawRepresentation == rhs.rawRepresentation
    }

    /// Hashes the raw bytes.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawRepresentation)
    }
}
