public import Foundation
import Junction
internal import JunctionArtifact

/// A device's status as a line of its decision log (OPA's status reports): on every
/// launch, activation and refusal, which bundle is active and from where, whether it is
/// `ok`, `stale` or `failed`, the refusal's code, the app's version and the install —
/// hashed, never as the app knows it:
///
/// ```json
/// {"app_version":"6.1.0","code":"artifactHashMismatch","epoch":1,"event":"skipped","install":"sha256:5b1c0e2f43d0a9b7","kind":"status","origin":"update","reason":"…","seq":7,"status":"ok","time":"2026-11-28T17:00:00Z"}
/// ```
///
/// `junction diff --urls` skips these lines; `junction logs report` counts devices per
/// seq and refusals by code from them.
public enum DeviceStatusLine {
    /// The line for `event`, in `status`.
    /// - Parameters:
    ///   - event: What the updater did.
    ///   - status: The updater's status after it, when it has one.
    ///   - appVersion: The app's version.
    ///   - installID: The install's own identifier; only its hash is written.
    ///   - time: When.
    /// - Returns: The line, or `nil` when it cannot be written as JSON.
    public static func make(
        _ event: UpdateEvent, status: UpdateStatus?, appVersion: String?, installID: String, time: Date
    ) -> String? {
        let (name, refusal, detail) = describe(event)
        return line(
            event: name, refusal: refusal, detail: detail, status: status, appVersion: appVersion,
            installID: installID, time: time)
    }

    private static func line(
        event name: String, refusal: UpdateRefusal?, detail: String?, status: UpdateStatus?, appVersion: String?,
        installID: String, time: Date
    ) -> String? {
        var fields: [String: RuleValue] = [
            "kind": "status", "time": .string(RFC3339.format(time)),
            "install": .string(DecisionLogLine.hash(installID)),
        ]
        if let appVersion { fields["app_version"] = .string(appVersion) }
        if let status {
            fields["epoch"] = .int(Int64(clamping: status.active.epoch))
            fields["seq"] = .int(Int64(clamping: status.active.seq))
            fields["origin"] = .string(status.origin.rawValue)
            switch status.condition {
            case .ok: fields["status"] = "ok"
            case .stale: fields["status"] = "stale"
            case .failed: fields["status"] = "failed"
            }
        }
        fields["event"] = .string(name)
        if let refusal {
            fields["code"] = .string(refusal.code.description)
            fields["reason"] = .string(String(refusal.message.prefix(300)))
        } else if let detail {
            fields["reason"] = .string(String(detail.prefix(300)))
        }
        guard let bytes = try? CanonicalJSON.encode(.table(fields)) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The line for a poll of the updater (``BundleUpdater/polls``): `event` is
    /// `installed`, `pinned_embedded`, `unchanged`, `not_in_rollout`, `failed` (with a
    /// refusal's `code`) or `unreachable` (with the transport's reason), and the status is
    /// the one after it.
    /// - Parameters:
    ///   - poll: The poll.
    ///   - appVersion: The app's version.
    ///   - installID: The install's own identifier; only its hash is written.
    /// - Returns: The line, or `nil` when it cannot be written as JSON.
    public static func make(_ poll: UpdatePoll, appVersion: String?, installID: String) -> String? {
        let event: UpdateEvent
        switch poll.outcome {
        case .activated(let identity, .embedded): event = .pinnedEmbedded(identity)
        case .activated(let identity, _): event = .installed(identity)
        case .unchanged(let identity?, .notInRollout(let percent)): event = .notInRollout(identity, percent: percent)
        case .unchanged(let identity, _): event = .unchanged(identity ?? poll.status.active)
        case .refused(let failure): event = .failed(failure)
        case .unreachable(let error, _):
            return line(
                event: "unreachable", refusal: nil, detail: error.description, status: poll.status,
                appVersion: appVersion, installID: installID, time: poll.started)
        }
        return make(event, status: poll.status, appVersion: appVersion, installID: installID, time: poll.started)
    }

    /// The event's name, its refusal if it has one, and what else it says.
    private static func describe(_ event: UpdateEvent) -> (String, UpdateRefusal?, String?) {
        switch event {
        case .skipped(_, let refusal): ("skipped", refusal, nil)
        case .launched: ("launched", nil, nil)
        case .installed: ("installed", nil, nil)
        case .unchanged: ("unchanged", nil, nil)
        case .notInRollout(_, let percent): ("not_in_rollout", nil, "\(percent)% of devices")
        case .pinnedEmbedded: ("pinned_embedded", nil, nil)
        case .pinIgnored(let refusal): ("pin_ignored", refusal, nil)
        case .setAsideStale: ("set_aside_stale", nil, nil)
        case .failed(.refused(let refusal)): ("failed", refusal, nil)
        case .failed(let failure): ("failed", nil, failure.description)
        }
    }
}
