import Crypto
import Foundation

/// An Ed25519 private key: what an author signs artifacts with.
public struct SigningKey: Sendable {
    private let key: Curve25519.Signing.PrivateKey

    /// The public half, for keyrings and `.pub` files.
    public let publicKey: VerificationKey

    /// A new random key.
    public init() {
        self.init(key: Curve25519.Signing.PrivateKey())
    }

    /// The key whose 32-byte seed is `seed`.
    /// - Throws: ``ArtifactError/Code-swift.struct/badKeyFile`` unless `seed` is 32 bytes.
    public init(seed: [UInt8]) throws(ArtifactError) {
        guard seed.count == 32, let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed) else {
            throw ArtifactError(.badKeyFile, "a private key's seed is 32 bytes, not \(seed.count)")
        }
        self.init(key: key)
    }

    private init(key: Curve25519.Signing.PrivateKey) {
        self.key = key
        // A valid private key always has a valid public key.
        self.publicKey = try! VerificationKey(rawRepresentation: Array(key.publicKey.rawRepresentation))
    }

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
