public import Foundation
import JunctionArtifact
import JunctionCore
import JunctionLua
public import Junction

/// The device's acceptance of an update: it takes a bundle only when it is authentic,
/// fresh, compatible and passes its own tests and the app's invariants — or refuses it with
/// an ``UpdateRefusal`` saying which check and why, and the active bundle stays.
///
/// Two steps, because an artifact is fetched only after its pointer passes:
///
/// 1. ``checkPointer(_:accepted:failed:at:acceptedIsHeld:)``: the pointer's size and signature (its
///    format, its key in the keyring, its seq and epoch at most 2⁵³ − 1, its epoch the key's); its
///    channel the device's; its epoch not lower than the update last accepted, and within
///    that epoch its seq strictly greater (the same seq and artifact is
///    ``PointerCheck/unchanged(_:)``, the same seq and another artifact is refused) — a
///    higher epoch starts the seq afresh; not an update refused before; not expired and not
///    dated in the future beyond the allowed skew; the artifact it names within the size cap.
/// 2. ``acceptArtifact(_:for:at:)``: the artifact's length, then its SHA-256, equal to the
///    pointer's — so nothing but the announced bytes is ever parsed — then the artifact's
///    own checks (caps, structure, key, signature, header, dates, member hashes); the
///    minimum host version; the manifest, routes, tests and Lua compiled under the
///    sandbox's budgets; the bundle's own tests; the app's invariants.
///
/// Time is a parameter — the time the update started — and is read nowhere else, so one
/// update is judged by one clock reading however long it takes.
public struct UpdateAcceptance: Sendable {
    /// What updates are held to.
    public let policy: AcceptancePolicy
    /// The invariants as rule tests, made once.
    let invariantTests: [RuleTestCase]
    /// The policy's ``AcceptanceStamp`` fingerprint, made once.
    let fingerprint: String

    /// The pipeline for `policy`.
    /// - Parameter policy: What updates are held to.
    public init(policy: AcceptancePolicy) {
        self.policy = policy
        invariantTests = policy.invariants.enumerated().map { $1.testCase(index: $0) }
        fingerprint = AcceptanceStamp.fingerprint(of: policy)
    }

    /// The acceptance stamp of an update this pipeline accepted: what the store keeps beside
    /// it (``StoredUpdate/acceptance``) so that ``reverify(_:)`` need not run its self-tests
    /// and the app's invariants again at each launch — an HMAC, under the policy's
    /// ``AcceptancePolicy/stampKey``, of the artifact's and the pointer's exact bytes and
    /// everything this policy checks with (see `AcceptanceStamp`).
    /// - Parameters:
    ///   - artifactSHA256: The artifact's SHA-256, as its identity names it.
    ///   - pointer: The pointer's exact bytes.
    /// - Returns: 64 lowercase hex digits; `nil` without a stamp key.
    public func stamp(artifactSHA256: String, pointer: [UInt8]) -> String? {
        policy.stampKey.map { key in
            AcceptanceStamp.of(
                artifactSHA256: artifactSHA256, pointerSHA256: SHA256Text.of(pointer), fingerprint: fingerprint,
                key: key)
        }
    }

    // MARK: - Pointer

    /// Checks a channel pointer against what the device knows: the update it accepted
    /// last and those it refused.
    /// - Parameters:
    ///   - bytes: The pointer file, as downloaded.
    ///   - accepted: The update accepted last from this channel (the ratchet); `nil` before any.
    ///   - failed: The updates refused before.
    ///   - now: The time the update started.
    ///   - acceptedIsHeld: Whether the device still holds the update `accepted` names —
    ///     deciding with it, pinned by it, or setting it aside as stale. `false` after a
    ///     launch dropped it as damaged and fell back: the same pointer again is then
    ///     ``PointerCheck/fetch(_:)`` (or ``PointerCheck/pinEmbedded(_:)``), so the device
    ///     repairs itself, while another artifact under that seq is still refused.
    /// - Returns: ``PointerCheck/unchanged(_:)`` for the update already held,
    ///   ``PointerCheck/pinEmbedded(_:)`` for the kill switch (whatever its rollout),
    ///   ``PointerCheck/notInRollout(_:)`` for an update rolled out to other devices, else
    ///   ``PointerCheck/fetch(_:)``.
    /// - Throws: ``UpdateRefusal``: a pointer code, `wrongChannel`, `staleEpoch`, `staleSeq`, `conflictingSeq`,
    ///   `previouslyFailed`, `pointerExpired`, `pointerFromFuture`, or
    ///   `artifactRefused(oversize)` for an artifact longer than the cap.
    public func checkPointer(
        _ bytes: [UInt8], accepted: UpdateIdentity?, failed: Set<UpdateIdentity>, at now: Date,
        acceptedIsHeld: Bool = true
    ) throws(UpdateRefusal) -> PointerCheck {
        let verified = try verify(pointer: bytes)
        let (pointer, identity) = (verified.pointer, verified.identity)
        if let channel = policy.channel, pointer.channel != channel {
            throw UpdateRefusal(
                .wrongChannel,
                "the pointer is signed for channel \"\(pointer.channel)\"; this device follows \"\(channel)\": "
                    + "serve each channel's own pointer at channels/\(channel).json")
        }
        if let accepted {
            if pointer.epoch < accepted.epoch {
                throw UpdateRefusal(
                    .staleEpoch,
                    "the pointer is of epoch \(pointer.epoch), lower than epoch \(accepted.epoch) of \(accepted), the "
                        + "update last accepted: a pointer of an epoch the channel has left, replayed or still "
                        + "served; publish with the key of epoch \(accepted.epoch) or later",
                    identity: identity)
            }
            if pointer.epoch == accepted.epoch, pointer.seq < accepted.seq {
                throw UpdateRefusal(
                    .staleSeq,
                    "the pointer's seq \(pointer.seq) is lower than seq \(accepted.seq), the update last accepted: "
                        + "a replay of an older pointer, or a mirror serving one; to roll back, publish the older "
                        + "artifact under a new, higher seq",
                    identity: identity)
            }
            if pointer.epoch == accepted.epoch, pointer.seq == accepted.seq {
                if pointer.artifactSHA256 == accepted.artifactSHA256 {
                    // Not held: the same announcement again is the way back to it, judged like a new one.
                    if acceptedIsHeld { return .unchanged(verified) }
                } else {
                    throw UpdateRefusal(
                        .conflictingSeq,
                        "the pointer's seq \(pointer.seq) is the seq of the update last accepted, but it names artifact "
                            + "\(pointer.artifactSHA256) instead of \(accepted.artifactSHA256): one seq names one "
                            + "artifact; publish the new artifact under a higher seq",
                        identity: identity)
                }
            }
        }
        if failed.contains(identity) {
            throw UpdateRefusal(
                .previouslyFailed,
                "\(identity) was refused on this device before and is not tried again; publish a fixed artifact "
                    + "under a higher seq",
                identity: identity)
        }
        try checkFreshness(of: verified, at: now)
        try checkAnnouncedLength(of: verified)
        // The kill switch ignores the rollout: an emergency stop reaches every device.
        if pointer.pinEmbedded { return .pinEmbedded(verified) }
        let included = policy.installID.map(pointer.rollout.includes) ?? (pointer.rollout.percent >= 100)
        return included ? .fetch(verified) : .notInRollout(verified)
    }

    /// The pointer, its signature verified.
    /// `stamped`: the pointer's bytes are bound to this policy's earlier verification by
    /// their stamp, so its signature is not checked again.
    private func verify(pointer bytes: [UInt8], stamped: Bool = false) throws(UpdateRefusal) -> VerifiedPointer {
        do {
            let pointer = try ChannelPointer(
                verifying: bytes, keyring: policy.keyring, signatureVerifiedBefore: stamped)
            return VerifiedPointer(pointer: pointer, bytes: bytes)
        } catch {
            let advice =
                switch error.code {
                case .unsigned, .unknownKey, .badSignature:
                    "publish the channel again, signed with a key in the app's keyring"
                case .seqTooLarge: "publish it under a seq (and epoch) of at most \(ChannelPointer.maximumSeq)"
                case .wrongEpoch: "publish it with the key the app trusts for that epoch"
                case .unsupportedFormat: "publish it in a format this app reads, or update the app"
                default: "serve channels/NAME.json exactly as junction bundle publish wrote it"
                }
            throw UpdateRefusal(
                UpdateRefusal.Code(error.code),
                "the channel pointer was refused (\(error.code)): \(error.message); the active bundle stays — \(advice)"
            )
        }
    }

    /// `expires` and `created`, against `now`.
    private func checkFreshness(of verified: VerifiedPointer, at now: Date) throws(UpdateRefusal) {
        let (pointer, identity) = (verified.pointer, verified.identity)
        if now >= pointer.expires {
            throw UpdateRefusal(
                .pointerExpired,
                "the pointer expired at \(Self.format(pointer.expires)); the update started at \(Self.format(now)): "
                    + "the channel was not republished in time, or a mirror serves an old pointer; publish the "
                    + "channel again",
                identity: identity)
        }
        if pointer.created > now.addingTimeInterval(Self.seconds(policy.clockSkew)) {
            throw UpdateRefusal(
                .pointerFromFuture,
                "the pointer was created at \(Self.format(pointer.created)), later than \(Self.format(now)) plus "
                    + "the allowed clock skew of \(Self.describe(policy.clockSkew)): check the device's clock and "
                    + "the publisher's",
                identity: identity)
        }
    }

    /// The announced length against the cap, before anything is fetched or read.
    private func checkAnnouncedLength(of verified: VerifiedPointer) throws(UpdateRefusal) {
        let (pointer, identity) = (verified.pointer, verified.identity)
        if pointer.artifactLength > policy.artifactLimits.totalSize {
            throw UpdateRefusal(
                .artifactRefused(.oversize),
                "the pointer announces an artifact of \(pointer.artifactLength) bytes; this app takes at most "
                    + "\(policy.artifactLimits.totalSize), so it is not fetched",
                identity: identity)
        }
    }

    // MARK: - Artifact

    /// Accepts the artifact a pointer announced, or refuses it.
    /// - Parameters:
    ///   - bytes: The artifact, as downloaded.
    ///   - verified: The pointer that announced it, from ``checkPointer(_:accepted:failed:at:acceptedIsHeld:)``.
    ///   - now: The time the update started (the same as the pointer's check).
    /// - Returns: The accepted update, ready to swap in and persist.
    /// - Throws: ``UpdateRefusal`` about the update (``UpdateRefusal/identity``):
    ///   `artifactLengthMismatch`, `artifactHashMismatch`, `artifactRefused`,
    ///   `artifactExpired`, `hostTooOld`, `bundleInvalid`, `selfTestFailed`, `invariantFailed`.
    public func acceptArtifact(_ bytes: [UInt8], for verified: VerifiedPointer, at now: Date)
        throws(UpdateRefusal) -> AcceptedUpdate
    {
        try acceptArtifact(bytes, for: verified, dates: .at(now))
    }

    /// `selfChecks`: when the bundle's tests and the app's invariants run (never, for an
    /// update this policy stamped).
    /// `knownSHA256`: the artifact's SHA-256, when the caller computed it from these bytes
    /// (the store's load, which checks every file against its name).
    private func acceptArtifact(
        _ bytes: [UInt8], for verified: VerifiedPointer, dates: ArtifactDateCheck, selfChecks: SelfChecks = .now,
        knownSHA256: String? = nil
    ) throws(UpdateRefusal) -> AcceptedUpdate {
        let (pointer, identity) = (verified.pointer, verified.identity)
        // The length first: it costs nothing, and bounds the hash that follows.
        guard bytes.count == pointer.artifactLength else {
            throw UpdateRefusal(
                .artifactLengthMismatch,
                "the artifact has \(bytes.count) bytes; the pointer announces \(pointer.artifactLength): a cut or "
                    + "wrong download; fetch objects/\(pointer.artifactSHA256).jbundle again",
                identity: identity)
        }
        guard bytes.count <= policy.artifactLimits.totalSize else {
            throw UpdateRefusal(
                .artifactRefused(.oversize),
                "the artifact has \(bytes.count) bytes; this app takes at most \(policy.artifactLimits.totalSize)",
                identity: identity)
        }
        // The hash before the signature or any parsing: only the announced bytes are read.
        let digest = knownSHA256 ?? Self.sha256(bytes)
        guard digest == pointer.artifactSHA256 else {
            throw UpdateRefusal(
                .artifactHashMismatch,
                "the artifact's SHA-256 is \(digest); the pointer announces \(pointer.artifactSHA256): not the "
                    + "artifact the pointer names (a corrupt download or a swapped object); fetch it again",
                identity: identity)
        }
        do {
            let artifact = try verify(artifact: bytes, dates: dates, stamped: selfChecks == .skipped)
            return try accept(artifact, pointer: verified, identity: identity, selfChecks: selfChecks)
        } catch {
            throw error.about(identity)
        }
    }

    /// Verifies again, at launch, an update persisted earlier: everything
    /// ``checkPointer(_:accepted:failed:at:acceptedIsHeld:)`` and ``acceptArtifact(_:for:at:)``
    /// check — signatures, channel, length and hash, structure, member hashes, host version,
    /// the bundle compiled, its tests, the app's invariants — but the ratchet, which the
    /// update would be compared with itself, and the dates. Expiry limits which new updates a
    /// device accepts; an update it verified and kept does not become untrustworthy offline.
    /// Past its expiry it is stale (``AcceptedUpdate/isStale(at:)``), and the installer's
    /// ``StaleBundlePolicy`` says what runs. A persisted kill switch names no artifact to
    /// activate: see ``reverify(pin:)``.
    /// - Parameters:
    ///   - pointer: The persisted pointer's bytes.
    ///   - artifact: The persisted artifact's bytes.
    /// - Returns: The update, ready to activate.
    /// - Throws: ``UpdateRefusal``, as the two steps do, but never `pointerExpired`,
    ///   `pointerFromFuture` or `artifactExpired`.
    public func reverify(pointer: [UInt8], artifact: [UInt8]) throws(UpdateRefusal) -> AcceptedUpdate {
        let verified = try reverifiedPointer(pointer)
        try checkAnnouncedLength(of: verified)
        return try acceptArtifact(artifact, for: verified, dates: .skipped)
    }

    /// Verifies again, at launch, an update the store kept: as ``reverify(pointer:artifact:)``,
    /// but when the policy has a stamp key and the update carries this pipeline's stamp for
    /// its exact bytes
    /// (``stamp(artifactSHA256:pointer:)``) what ran here, on these bytes, under this policy
    /// is not run again: its self-tests, the app's invariants, the pointer's and artifact's
    /// signatures, the members' hashes and the canonical byte form of the pointer and the
    /// artifact's header (the stamp binds the SHA-256 of both files; the artifact's is
    /// checked again), and the comparison of its routes with each other.
    /// Everything that could have changed still is checked: the pointer's channel and fields,
    /// the artifact's length, SHA-256, structure and host version, and the bundle is compiled.
    /// - Parameter stored: The update, as ``BundleStore/load()`` gave it.
    /// - Returns: The update, ready to activate.
    /// - Throws: ``UpdateRefusal``, as ``reverify(pointer:artifact:)``.
    public func reverify(_ stored: StoredUpdate) throws(UpdateRefusal) -> AcceptedUpdate {
        let expected = stamp(artifactSHA256: stored.identity.artifactSHA256, pointer: stored.pointer)
        let stamped = expected != nil && stored.acceptance == expected
        let verified = try reverifiedPointer(stored.pointer, stamped: stamped)
        try checkAnnouncedLength(of: verified)
        return try acceptArtifact(
            stored.artifact, for: verified, dates: .skipped, selfChecks: stamped ? .skipped : .now,
            knownSHA256: stored.artifactHashChecked ? stored.identity.artifactSHA256 : nil)
    }

    /// Verifies again, at launch, a kill switch persisted earlier: its signature and
    /// channel, and that it is one (`pin_embedded`); not its dates, as ``reverify(pointer:artifact:)``.
    /// - Parameter pin: The persisted pointer's bytes.
    /// - Returns: The pointer, verified.
    /// - Throws: ``UpdateRefusal``: a pointer code, `wrongChannel`, or `pointerMalformed`
    ///   for a pointer that does not pin the embedded bundle.
    public func reverify(pin: [UInt8]) throws(UpdateRefusal) -> VerifiedPointer {
        let verified = try reverifiedPointer(pin)
        guard verified.pointer.pinEmbedded else {
            throw UpdateRefusal(
                .pointerMalformed,
                "the persisted kill switch \(verified.identity) does not pin the embedded bundle: it is not the "
                    + "pointer that was recorded; the embedded bundle is not pinned",
                identity: verified.identity)
        }
        return verified
    }

    /// A persisted pointer's signature and channel.
    private func reverifiedPointer(_ bytes: [UInt8], stamped: Bool = false) throws(UpdateRefusal) -> VerifiedPointer {
        let verified = try verify(pointer: bytes, stamped: stamped)
        if let channel = policy.channel, verified.pointer.channel != channel {
            throw UpdateRefusal(
                .wrongChannel,
                "the persisted pointer is of channel \"\(verified.pointer.channel)\"; this device follows "
                    + "\"\(channel)\"")
        }
        return verified
    }

    /// Accepts the artifact embedded in the app: its signature, structure, member hashes,
    /// host version, bundle, tests and invariants are checked as an update's are.
    ///
    /// Its dates are not (``ArtifactDateCheck/skipped``): it ships inside the app, as trusted
    /// as the app's own code, and it is the floor the device falls back to when every update
    /// is refused — an expired one still decides, where refusing it would leave the app no
    /// routing at all. The result reports it through ``AcceptedUpdate/isStale(at:)``, so
    /// status says `stale`.
    /// - Parameter bytes: The embedded artifact, as `Data` or bytes.
    /// - Returns: The bundle as an update of seq 0, which any published pointer supersedes.
    /// - Throws: ``UpdateRefusal``: `artifactRefused`, `hostTooOld`, `bundleInvalid`,
    ///   `selfTestFailed`, `invariantFailed`.
    public func acceptEmbedded(_ bytes: some Collection<UInt8>) throws(UpdateRefusal) -> AcceptedUpdate {
        try acceptEmbedded(bytes, selfChecks: .now)
    }

    /// ``acceptEmbedded(_:)`` with its tests and the app's invariants run when `selfChecks`
    /// says: at launch, deferred to ``runSelfChecks(_:)`` on a background task.
    func acceptEmbedded(_ bytes: some Collection<UInt8>, selfChecks: SelfChecks) throws(UpdateRefusal)
        -> AcceptedUpdate
    {
        let bytes = Array(bytes)
        let artifact = try verify(artifact: bytes, dates: .skipped)
        return try accept(
            artifact, pointer: nil, identity: UpdateIdentity(seq: 0, artifactSHA256: Self.sha256(bytes)),
            selfChecks: selfChecks)
    }

    /// The artifact's own checks, its dates as `dates` says.
    /// `stamped`: the bytes, their SHA-256 checked against the pointer's, are bound to this
    /// policy's earlier verification by their stamp, so their signature and members' hashes
    /// are not checked again.
    private func verify(artifact bytes: [UInt8], dates: ArtifactDateCheck, stamped: Bool = false)
        throws(UpdateRefusal) -> Artifact
    {
        var limits = policy.artifactLimits
        limits.clockSkew = policy.clockSkew
        do {
            return try Artifact(
                verifying: bytes, keyring: policy.keyring, dates: dates, limits: limits, verifiedBefore: stamped)
        } catch {
            throw Self.refusal(error)
        }
    }

    private static func refusal(_ error: ArtifactError) -> UpdateRefusal {
        if error.code == .expired {
            return UpdateRefusal(
                .artifactExpired,
                "\(error.message): build and publish a fresh artifact (junction bundle build --expires)")
        }
        return UpdateRefusal(.artifactRefused(error.code), "the artifact was refused: \(error)")
    }

    // MARK: - Helpers

    static func sha256(_ bytes: [UInt8]) -> String { SHA256Text.of(bytes) }

    static func format(_ date: Date) -> String { date.formatted(.iso8601) }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    static func describe(_ duration: Duration) -> String {
        let seconds = seconds(duration)
        return seconds == seconds.rounded() ? "\(Int64(seconds)) s" : "\(seconds) s"
    }
}
