public import Foundation

/// What the device runs and how that stands: the active update, where it came from, when it
/// expires, and whether it is ``UpdateCondition/ok``, ``UpdateCondition/stale`` or the last
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

    /// A status.
    /// - Parameters:
    ///   - active: The active update.
    ///   - origin: Where it came from.
    ///   - expires: When it stops being fresh.
    ///   - condition: How it stands.
    public init(active: UpdateIdentity, origin: PolicyOrigin, expires: Date, condition: UpdateCondition) {
        self.active = active
        self.origin = origin
        self.expires = expires
        self.condition = condition
    }

    /// `seq 7 (sha256 3f2a…c1d0) from update: ok`.
    public var description: String { "\(active) from \(origin): \(condition)" }
}
