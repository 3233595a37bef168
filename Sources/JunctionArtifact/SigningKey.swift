import Crypto
import Foundation

/// An Ed25519 private key: what an author signs artifacts with.
public struct SigningKey: Sendable {
    private let key: Curve25519.Signing.PrivateKey

    /// The public half, for keyrings and `.pub` files; it carries the key's ``epoch``.
    public let publicKey: VerificationKey

    /// A new random key.
    /// - Parameter epoch: The seq epoch it signs pointers in (``VerificationKey/epoch``), at
    ///   most ``ChannelPointer/maximumSeq``; 0 by default.
    public init(epoch: UInt64 = 0) {
        precondition(epoch <= ChannelPointer.maximumSeq, "a key's epoch is at most 2^53 - 1")
        self.init(key: Curve25519.Signing.PrivateKey(), epoch: epoch)
    }

    /// The key whose 32-byte seed is `seed`.
    /// - Parameters:
    ///   - seed: The 32-byte seed.
    ///   - epoch: The seq epoch it signs pointers in; 0 by default.
    /// - Throws: ``ArtifactError/Code-swift.struct/badKeyFile`` unless `seed` is 32 bytes and
    ///   `epoch` at most ``ChannelPointer/maximumSeq``.
    public init(seed: [UInt8], epoch: UInt64 = 0) throws(ArtifactError) {
        guard seed.count == 32, let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed) else {
            throw ArtifactError(.badKeyFile, "a private key's seed is 32 bytes, not \(seed.count)")
        }
        guard epoch <= ChannelPointer.maximumSeq else {
            throw ArtifactError(.badKeyFile, "a key's epoch is at most \(ChannelPointer.maximumSeq), not \(epoch)")
        }
        self.init(key: key, epoch: epoch)
    }

    private init(key: Curve25519.Signing.PrivateKey, epoch: UInt64) {
        self.key = key
        // A valid private key always has a valid public key; the epoch was checked.
        self.publicKey = try! VerificationKey(rawRepresentation: Array(key.publicKey.rawRepresentation), epoch: epoch)
    }

    /// The seq epoch whose channel pointers this key signs (``VerificationKey/epoch``).
    public var epoch: UInt64 { publicKey.epoch }

    /// The 32-byte seed, as a private key file holds it.
    public var seed: [UInt8] { Array(key.rawRepresentation) }

    /// The id of the public half.
    public var keyID: String { publicKey.keyID }

    /// The 64-byte Ed25519 signature of `message`.
    public func signature(for message: ArraySlice<UInt8>) -> [UInt8] {
        // Signing with a valid key cannot fail; swift-crypto throws only on a bad key.
        Array(try! key.signature(for: message))
    }
}
