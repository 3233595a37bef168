public import Junction

/// What the installer did, in order: on ``BundleInstaller/events`` and in its log.
public enum UpdateEvent: Sendable, Hashable, CustomStringConvertible {
    /// A persisted update was not launched (refused again at launch, or damaged): the next
    /// one down — the last-known-good, then the embedded bundle — was tried.
    case skipped(PolicyOrigin, UpdateRefusal)
    /// The app launched with this update, from there.
    case launched(UpdateIdentity, PolicyOrigin)
    /// The update was accepted, persisted and activated.
    case installed(UpdateIdentity)
    /// The pointer announces the update accepted last: nothing to do.
    case unchanged(UpdateIdentity)
    /// The pointer announces a newer update rolled out to a share of devices that does not
    /// include this one: nothing was fetched and nothing moved.
    case notInRollout(UpdateIdentity, percent: Double)
    /// The kill switch: the pointer pins the bundle embedded in the app, now active — sent
    /// when it arrives and at each launch while it is persisted.
    case pinnedEmbedded(UpdateIdentity)
    /// The persisted kill switch was refused at launch (its key left the keyring, or it is of
    /// another channel): the app launched as if unpinned. The ratchet stays at its seq, so
    /// reading the same pointer from the channel pins again.
    case pinIgnored(UpdateRefusal)
    /// The update is past its expiry and the app's ``StaleBundlePolicy`` is
    /// ``StaleBundlePolicy/fallBackToEmbedded``: the embedded bundle decides; the update
    /// stays persisted.
    case setAsideStale(UpdateIdentity)
    /// The update did not become active; the active bundle stayed.
    case failed(UpdateFailure)

    /// `installed seq 7 (sha256 3f2a…c1d0)`, `failed refused: staleSeq: …`, ….
    public var description: String {
        switch self {
        case .skipped(let origin, let refusal): "skipped the \(origin) update: \(refusal)"
        case .launched(let identity, let origin): "launched \(identity) from \(origin)"
        case .installed(let identity): "installed \(identity)"
        case .unchanged(let identity): "unchanged \(identity)"
        case .notInRollout(let identity, let percent):
            "not in the rollout of \(identity): \(percent == percent.rounded() ? String(Int(percent)) : String(percent))% of devices"
        case .pinnedEmbedded(let identity): "pinned the embedded bundle by \(identity)"
        case .pinIgnored(let refusal): "ignored the persisted kill switch: \(refusal)"
        case .setAsideStale(let identity): "set aside the stale update \(identity): the embedded bundle decides"
        case .failed(let failure): "failed \(failure)"
        }
    }
}
