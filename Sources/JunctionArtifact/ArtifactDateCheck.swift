public import Foundation

/// Whether ``Artifact/init(verifying:keyring:dates:limits:)`` holds an artifact's `created`
/// and `expires` to a time. Every other check — caps, structure, key, signature, header
/// rules, member hashes — runs either way.
public enum ArtifactDateCheck: Sendable, Hashable {
    /// Against this time, the time the update started: an expired artifact, or one created
    /// later than the time plus the allowed skew, is refused.
    case at(Date)
    /// Not at all: for bytes whose freshness was settled before — an update the device
    /// accepted and persisted, verified again at launch, or the artifact shipped inside the
    /// app. Being past `expires` makes such a bundle stale, not untrustworthy.
    case skipped
}
