public import Foundation
public import Junction

/// What one poll of the channel came to: the four outcomes an app's telemetry counts.
public enum UpdatePollOutcome: Sendable, Hashable, CustomStringConvertible {
    /// Nothing to take: the channel is unchanged (`304`), announces what the device holds, or
    /// rolls out to other devices. The identity is the one announced (or held, for a `304`);
    /// `nil` only for a `304` while the device holds no update.
    case unchanged(UpdateIdentity?, UnchangedReason)
    /// The update is active: installed from the channel (origin ``PolicyOrigin/update``), or
    /// the kill switch it carries pinned the embedded bundle (``PolicyOrigin/embedded``).
    case activated(UpdateIdentity, PolicyOrigin)
    /// The channel announced something the device does not take — refused by a check, or
    /// accepted but not persisted; the active bundle keeps deciding.
    case refused(UpdateFailure)
    /// The host gave nothing usable — no connection, past the deadline, a status other than
    /// `200`/`304` — and the next attempt is at `nextAttempt`, after a backoff or the
    /// server's `Retry-After`.
    case unreachable(UpdateTransportError, nextAttempt: Date)

    /// Why a poll changed nothing.
    public enum UnchangedReason: Sendable, Hashable, CustomStringConvertible {
        /// The host answered `304` to the ETag of the pointer the device holds: nothing was
        /// downloaded or verified.
        case notModified
        /// The pointer announces the update the device holds.
        case sameUpdate
        /// The pointer's rollout does not include this device.
        case notInRollout(percent: Double)

        /// `not modified`, `same update`, `not in the rollout (10%)`.
        public var description: String {
            switch self {
            case .notModified: "not modified"
            case .sameUpdate: "same update"
            case .notInRollout(let percent):
                "not in the rollout (\(percent == percent.rounded() ? String(Int(percent)) : String(percent))%)"
            }
        }
    }

    /// The name telemetry and `junction agent --json` use: `unchanged`, `activated`,
    /// `refused`, `unreachable`.
    public var name: String {
        switch self {
        case .unchanged: "unchanged"
        case .activated: "activated"
        case .refused: "refused"
        case .unreachable: "unreachable"
        }
    }

    /// `activated seq 7 (sha256 3f2a…c1d0) from update`, `unchanged: not modified`, ….
    public var description: String {
        switch self {
        case .unchanged(let identity, let reason): "unchanged \(identity.map { "\($0) " } ?? "")(\(reason))"
        case .activated(let identity, let origin): "activated \(identity) from \(origin)"
        case .refused(.refused(let refusal)): "refused: \(refusal)"
        case .refused(let failure): "refused, \(failure)"
        case .unreachable(let error, let next):
            "unreachable: \(error); next attempt at \(next.formatted(.iso8601))"
        }
    }
}
