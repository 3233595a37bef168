/// The fixed facts of the `.jbundle` container (docs/artifacts.md).
enum ArtifactFormat {
    /// `JBNDL` and a zero byte.
    static let magic: [UInt8] = [0x4A, 0x42, 0x4E, 0x44, 0x4C, 0x00]
    /// The only format version this reader knows.
    static let version: UInt16 = 1
    /// Magic, version (2 bytes) and header length (4 bytes).
    static let prefixLength = 12
    /// An Ed25519 signature.
    static let signatureLength = 64
}
