/// The caps the store holds its files to: each file's size is checked before it is read,
/// so a tampered or runaway file on disk costs no memory.
public struct BundleStoreLimits: Sendable, Hashable {
    /// The largest artifact stored or read (16 MiB by default, as `ArtifactLimits.default.totalSize`).
    public var maximumArtifactBytes: Int
    /// The largest channel pointer stored or read (16 KiB by default, as `ChannelPointer.maximumBytes`).
    public var maximumPointerBytes: Int
    /// The largest state file read (64 KiB by default; 64 failures take under 8 KiB).
    public var maximumStateBytes: Int
    /// How many refused identities are remembered; the oldest are forgotten first (64).
    public var maximumFailures: Int
    /// The most entries the store lists in one of its directories (4,096).
    public var maximumDirectoryEntries: Int

    /// Creates limits; every argument defaults to the documented value.
    public init(
        maximumArtifactBytes: Int = 16 << 20, maximumPointerBytes: Int = 16 << 10, maximumStateBytes: Int = 64 << 10,
        maximumFailures: Int = 64, maximumDirectoryEntries: Int = 4_096
    ) {
        self.maximumArtifactBytes = maximumArtifactBytes
        self.maximumPointerBytes = maximumPointerBytes
        self.maximumStateBytes = maximumStateBytes
        self.maximumFailures = maximumFailures
        self.maximumDirectoryEntries = maximumDirectoryEntries
    }

    /// The defaults.
    public static let `default` = BundleStoreLimits()
}
