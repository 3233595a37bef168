/// What a verified, fresh channel pointer asks of the device.
public enum PointerCheck: Sendable, Hashable {
    /// The pointer announces the update already active (the same seq and artifact): nothing to do.
    case unchanged(VerifiedPointer)
    /// The pointer announces a newer update: fetch its artifact — at most
    /// ``VerifiedPointer/pointer``'s `artifactLength` bytes — and pass it to
    /// ``UpdateAcceptance/acceptArtifact(_:for:at:)``.
    case fetch(VerifiedPointer)
    /// The pointer is the kill switch (`pin_embedded`): stop using updates and decide with
    /// the bundle embedded in the app. It passed every check a newer update does — a
    /// replayed old kill switch is refused like any stale pointer — so the device accepts
    /// its identity as the last accepted and fetches nothing.
    case pinEmbedded(VerifiedPointer)
    /// The pointer announces a newer update, but its rollout does not include this device
    /// (``AcceptancePolicy/installID``): nothing to fetch, and nothing moves — a later
    /// pointer with a higher percent under the same salt takes the device in.
    case notInRollout(VerifiedPointer)
}
