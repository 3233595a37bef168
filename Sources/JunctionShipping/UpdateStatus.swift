public import Foundation
public import Junction

/// What the device runs and how that stands: the active update, where it came from, when it
/// expires, the kill switch or stale update it stands in for, and whether it is ``UpdateCondition/ok``, ``UpdateCondition/stale`` or the last
/// update ``UpdateCondition/failed(_:)``.
public struct UpdateStatus: Sendable, Hashable, CustomStringConvertible {
    /// The active update: the pointer's seq and the artifact's SHA-256; seq 0 for the
    /// bundle embedded in the app.
    public let active: UpdateIdentity
    /// Where the active bundle came from.
    public let origin: PolicyOrigin
    /// When the active bundle stops being fresh.
    public let expires: Date
    /// How it stands.
    public let condition: UpdateCondition
    /// The kill switch in force: the embedded bundle decides until a higher seq lifts it.
    public let pinnedBy: UpdateIdentity?
    /// The stale update the embedded bundle decides in place of, under
    /// ``StaleBundlePolicy/fallBackToEmbedded``.
    public let setAside: UpdateIdentity?

    /// A status.
    /// - Parameters:
    ///   - active: The active update.
    ///   - origin: Where it came from.
    ///   - expires: When it stops being fresh.
    ///   - condition: How it stands.
    ///   - pinnedBy: The kill switch in force.
    ///   - setAside: The stale update the embedded bundle stands in for.
    public init(
        active: UpdateIdentity, origin: PolicyOrigin, expires: Date, condition: UpdateCondition,
        pinnedBy: UpdateIdentity? = nil, setAside: UpdateIdentity? = nil
    ) {
        self.active = active
        self.origin = origin
        self.expires = expires
        self.condition = condition
        self.pinnedBy = pinnedBy
        self.setAside = setAside
    }

    /// `seq 7 (sha256 3f2a…c1d0) from update: ok`, `seq 0 (…) from embedded, pinned by
    /// seq 8 (…): ok`, `seq 0 (…) from embedded, in place of the stale seq 7 (…): stale`.
    public var description: String {
        let pin = pinnedBy.map { ", pinned by \($0)" } ?? ""
        let stale = setAside.map { ", in place of the stale \($0)" } ?? ""
        return "\(active) from \(origin)\(pin)\(stale): \(condition)"
    }
}
