/// What the app decides with once the update in force is past its expiry — the channel was
/// not republished in time, or the device could not reach it. Expiry limits which new
/// updates a device accepts; an update it verified and kept stays trustworthy offline, so
/// it is never dropped for its age, only reported ``UpdateCondition/stale``.
public enum StaleBundlePolicy: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The stale update keeps deciding: it is the newest policy the device knows.
    case keepDeciding
    /// The bundle embedded in the app decides instead, at launch and as soon as
    /// ``BundleInstaller/status(at:)`` finds the update past its expiry. The update stays
    /// persisted (and the ratchet where it was), so a later pointer installs as usual.
    case fallBackToEmbedded

    /// The raw value: `keepDeciding` or `fallBackToEmbedded`.
    public var description: String { rawValue }
}
