/// The caps an artifact is held to, each checked before the work whose size it bounds.
public struct ArtifactLimits: Sendable, Hashable {
    /// The most bytes a whole artifact may have (16 MiB by default).
    public var totalSize: Int

    /// The most bytes the header may have (512 KiB by default: 1,024 members with long
    /// paths fit several times over).
    public var headerSize: Int

    /// The most members an artifact may have (1,024 by default).
    public var memberCount: Int

    /// The most bytes of UTF-8 a member's path may have (128 by default).
    public var pathLength: Int

    /// How far in the future an artifact's `created` may be, for clocks that disagree
    /// (5 minutes by default).
    public var clockSkew: Duration

    /// Creates limits; every argument defaults to the documented value.
    public init(
        totalSize: Int = 16 << 20,
        headerSize: Int = 512 << 10,
        memberCount: Int = 1_024,
        pathLength: Int = 128,
        clockSkew: Duration = .seconds(300)
    ) {
        self.totalSize = totalSize
        self.headerSize = headerSize
        self.memberCount = memberCount
        self.pathLength = pathLength
        self.clockSkew = clockSkew
    }

    /// The defaults.
    public static let `default` = ArtifactLimits()
}
