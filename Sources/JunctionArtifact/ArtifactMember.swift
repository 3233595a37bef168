/// One entry of an artifact's member table.
public struct ArtifactMember: Sendable, Hashable {
    /// The member's path: relative, `/`-separated (docs/artifacts.md has its rules).
    public let path: String

    /// What the member holds.
    public let kind: ArtifactMemberKind

    /// The member's length in bytes.
    public let length: Int

    /// The lowercase hex SHA-256 of the member's bytes.
    public let sha256: String

    /// Creates a table entry.
    package init(path: String, kind: ArtifactMemberKind, length: Int, sha256: String) {
        self.path = path
        self.kind = kind
        self.length = length
        self.sha256 = sha256
    }
}
