/// What an artifact says about itself, read without a key: its signature is not checked.
public struct ArtifactInspection: Sendable {
    /// The header, its rules checked but not its signature.
    public let header: ArtifactHeader

    /// The paths of the members whose bytes do not have the SHA-256 the header gives.
    public let hashMismatches: [String]

    /// The 64 signature bytes, unchecked.
    public let signature: [UInt8]

    /// The artifact's length in bytes.
    public let length: Int
}
