import Crypto
public import Foundation

/// Builds a signed `.jbundle` from members and header fields.
///
/// Reproducible: the same members, fields and `created` give the same bytes, members being
/// sorted by path and the header canonical JSON; Ed25519 signatures (BoringSSL's, on Linux)
/// are deterministic too, so the same key gives the same whole file.
public struct ArtifactBuilder: Sendable {
    /// The bundle's name.
    public var name: String

    /// The bundle's human version text.
    public var version: String

    /// When the artifact is built; pin it for reproducible bytes. Its fraction of a second is dropped.
    public var created: Date

    /// When the artifact stops being valid; its fraction of a second is dropped.
    public var expires: Date

    /// The oldest host version that may load the bundle.
    public var minimumHostVersion: String?

    /// The caps the result must be within, the same a reader applies.
    public var limits: ArtifactLimits

    private var members: [(path: String, kind: ArtifactMemberKind, bytes: [UInt8])] = []

    /// Creates a builder with no members.
    public init(
        name: String, version: String, created: Date, expires: Date, minimumHostVersion: String? = nil,
        limits: ArtifactLimits = .default
    ) {
        self.name = name
        self.version = version
        self.created = created
        self.expires = expires
        self.minimumHostVersion = minimumHostVersion
        self.limits = limits
    }

    /// Adds a member; the order members are added in does not matter.
    public mutating func add(path: String, kind: ArtifactMemberKind, bytes: [UInt8]) {
        members.append((path, kind, bytes))
    }

    /// The artifact's bytes, signed with `key`.
    /// - Throws: ``ArtifactError`` when the members or fields break a rule a reader would
    ///   refuse them for (a bad path, a missing manifest, a too long name, a size over `limits`).
    public func build(signedWith key: SigningKey) throws(ArtifactError) -> [UInt8] {
        let sorted = members.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        if sorted.count > limits.memberCount {
            throw ArtifactError(.oversize, "\(sorted.count) members; at most \(limits.memberCount) are allowed")
        }
        let fields = HeaderFields(
            format: Int(ArtifactFormat.version), name: name, version: version, created: RFC3339.format(created),
            expires: RFC3339.format(expires), minimumHostVersion: minimumHostVersion, keyID: key.keyID,
            members: sorted.map {
                HeaderFields.Row(
                    path: $0.path, kind: $0.kind.name, length: $0.bytes.count,
                    sha256: Hex.encode(SHA256.hash(data: $0.bytes)))
            })
        // The reader's own rules, so nothing is built that a device would refuse for its header.
        _ = try fields.validated(limits: limits)
        let header = fields.canonicalJSON
        if header.count > limits.headerSize {
            throw ArtifactError(
                .oversize, "the header has \(header.count) bytes; at most \(limits.headerSize) are allowed")
        }
        let total =
            ArtifactFormat.prefixLength + header.count + sorted.reduce(0) { $0 + $1.bytes.count }
            + ArtifactFormat.signatureLength
        if total > limits.totalSize {
            throw ArtifactError(
                .oversize, "the artifact would have \(total) bytes; at most \(limits.totalSize) are allowed")
        }
        var bytes = ArtifactFormat.magic
        bytes.reserveCapacity(total)
        bytes.append(UInt8(ArtifactFormat.version >> 8))
        bytes.append(UInt8(ArtifactFormat.version & 0xFF))
        for shift in [24, 16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: header.count >> shift)) }
        bytes.append(contentsOf: header)
        for member in sorted { bytes.append(contentsOf: member.bytes) }
        bytes.append(contentsOf: key.signature(for: bytes[...]))
        return bytes
    }
}
