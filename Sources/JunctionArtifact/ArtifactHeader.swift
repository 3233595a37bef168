public import Foundation

/// What an artifact says about itself, all of it under the signature.
public struct ArtifactHeader: Sendable, Hashable {
    /// The format version (1).
    public let format: Int

    /// The bundle's name.
    public let name: String

    /// The bundle's human version text.
    public let version: String

    /// When the artifact was built (whole seconds).
    public let created: Date

    /// When the artifact stops being valid (whole seconds).
    public let expires: Date

    /// The oldest host version that may load the bundle, as the author wrote it.
    public let minimumHostVersion: String?

    /// The id of the key that signed the artifact.
    public let keyID: String

    /// The members, sorted by path.
    public let members: [ArtifactMember]

    /// Creates a header.
    package init(
        format: Int, name: String, version: String, created: Date, expires: Date,
        minimumHostVersion: String?, keyID: String, members: [ArtifactMember]
    ) {
        self.format = format
        self.name = name
        self.version = version
        self.created = created
        self.expires = expires
        self.minimumHostVersion = minimumHostVersion
        self.keyID = keyID
        self.members = members
    }
}
