public import Foundation
public import Logging

/// Runs the device's bundle: launches from what the store kept — the persisted current
/// update, verified again; else the last-known-good; else the bundle embedded in the app —
/// and installs updates: pointer check → the caller fetches the artifact → acceptance →
/// persist → activate. An update that is refused, cannot be fetched or cannot be persisted
/// leaves the active snapshot deciding; a refused one is remembered and not tried again,
/// while a newer seq still is.
///
/// ```swift
/// let installer = try BundleInstaller.launch(
///     acceptance: UpdateAcceptance(policy: policy), store: BundleStore(directory: dir), embedded: embeddedBytes)
/// let router = Router(policy: installer.policy)
/// await installer.install(pointer: pointerBytes) { verified in try await download(verified.pointer) }
/// print(await installer.status())   // seq 7 (sha256 3f2a…c1d0) from update: ok
/// ```
///
/// The snapshots it activates are built by acceptance, with the acceptance policy's Swift
/// interceptors and decider options — the ones the self-tests and invariants ran under —
/// so give the app's interceptors to the ``AcceptancePolicy``, not to the router.
///
/// Every change is an ``UpdateEvent`` on ``events`` and a line in the log (label
/// `junction.update`): launches and installs at `info`, what was skipped or refused at
/// `warning`, what could not be written at `error`.
public actor BundleInstaller {
    /// The policy the app decides under; a ``Router`` built on it follows every activation.
    public nonisolated let policy: ActivePolicy
    /// What the installer did, from the launch on; the newest ``eventBuffer`` are kept for a
    /// reader that falls behind. One reader.
    public nonisolated let events: AsyncStream<UpdateEvent>
    /// How many events ``events`` keeps for a slow reader.
    public static let eventBuffer = 64

    private let continuation: AsyncStream<UpdateEvent>.Continuation
    private let acceptance: UpdateAcceptance
    private let store: BundleStore
    private let embedded: [UInt8]
    private let logger: Logger
    private var embeddedUpdate: AcceptedUpdate?
    /// The identity accepted last: what a pointer's seq must exceed.
    private var ratchet: UpdateIdentity?
    private var refusedIdentities: Set<UpdateIdentity>
    private var active: UpdateIdentity
    private var origin: PolicyOrigin
    private var expires: Date
    private var lastFailure: UpdateFailure?

    /// Launches: the first of the persisted current update, the last-known-good and the
    /// embedded bundle that passes acceptance becomes the active snapshot. A persisted
    /// current update that no longer passes (expired, damaged, refused by a stricter app) is
    /// dropped from the store; the ratchet and the refused identities stay.
    /// - Parameters:
    ///   - acceptance: The checks updates are held to, with the app's keyring, invariants,
    ///     Swift interceptors and decider options.
    ///   - store: Where accepted updates are persisted.
    ///   - embedded: The artifact shipped inside the app: the floor.
    ///   - now: The time of the launch.
    ///   - logger: Where events are logged; label `junction.update` by default.
    /// - Returns: The installer, its ``policy`` deciding.
    /// - Throws: ``UpdateRefusal`` when the embedded artifact itself is refused — a build
    ///   mistake in the app (an artifact signed by a key not in the keyring, a failing
    ///   invariant) that no update can repair.
    public static func launch(
        acceptance: UpdateAcceptance, store: BundleStore, embedded: [UInt8], at now: Date = Date(),
        logger: Logger = Logger(label: "junction.update")
    ) throws(UpdateRefusal) -> BundleInstaller {
        let state = store.load()
        var skipped: [UpdateEvent] = []
        var launched: (update: AcceptedUpdate, origin: PolicyOrigin)?
        if let current = state.current {
            do {
                launched = (
                    try acceptance.reverify(pointer: current.pointer, artifact: current.artifact, at: now), .persisted
                )
            } catch {
                skipped.append(.skipped(.persisted, error))
                logger.warning("the persisted update \(current.identity) is not launched: \(error)")
                do { try store.dropCurrent() } catch {
                    logger.error("the persisted update could not be dropped, it is tried again next launch: \(error)")
                }
            }
        }
        if launched == nil, let lastKnownGood = state.lastKnownGood {
            do {
                launched = (
                    try acceptance.reverify(pointer: lastKnownGood.pointer, artifact: lastKnownGood.artifact, at: now),
                    .lastKnownGood
                )
            } catch {
                skipped.append(.skipped(.lastKnownGood, error))
                logger.warning("the last-known-good update \(lastKnownGood.identity) is not launched: \(error)")
            }
        }
        let chosen: (update: AcceptedUpdate, origin: PolicyOrigin)
        if let launched { chosen = launched } else { chosen = (try acceptance.acceptEmbedded(embedded), .embedded) }
        let installer = BundleInstaller(
            acceptance: acceptance, store: store, embedded: embedded, launched: chosen.update, origin: chosen.origin,
            ratchet: state.ratchet, refused: Set(state.failed), logger: logger)
        for event in skipped { installer.continuation.yield(event) }
        installer.continuation.yield(.launched(chosen.update.identity, chosen.origin))
        logger.info("launched \(chosen.update.identity) from \(chosen.origin)")
        return installer
    }

    private init(
        acceptance: UpdateAcceptance, store: BundleStore, embedded: [UInt8], launched: AcceptedUpdate,
        origin: PolicyOrigin, ratchet: UpdateIdentity?, refused: Set<UpdateIdentity>, logger: Logger
    ) {
        self.acceptance = acceptance
        self.store = store
        self.embedded = embedded
        self.logger = logger
        self.ratchet = ratchet
        refusedIdentities = refused
        active = launched.identity
        self.origin = origin
        expires = launched.expires
        embeddedUpdate = origin == .embedded ? launched : nil
        policy = ActivePolicy(PolicySnapshot(decider: launched.decider, origin: origin, identity: launched.identity))
        (events, continuation) = AsyncStream.makeStream(
            of: UpdateEvent.self, bufferingPolicy: .bufferingNewest(Self.eventBuffer))
    }

    /// What runs and how it stands at `now`: ``UpdateCondition/failed(_:)`` while the last
    /// update did not go in, else ``UpdateCondition/stale`` past the active bundle's expiry,
    /// else ``UpdateCondition/ok``.
    /// - Parameter now: The time to judge expiry by.
    /// - Returns: The status.
    public func status(at now: Date = Date()) -> UpdateStatus {
        let condition: UpdateCondition =
            if let lastFailure { .failed(lastFailure) } else if now >= expires { .stale } else { .ok }
        return UpdateStatus(active: active, origin: origin, expires: expires, condition: condition)
    }

    /// The updates refused on this device (persisted, and those refused since the launch):
    /// pointers naming them are refused `previouslyFailed` without a fetch.
    public var refused: Set<UpdateIdentity> { refusedIdentities }

    /// Installs the update a channel pointer announces: checks the pointer; unless it names
    /// the update accepted last, asks `fetch` for the artifact; accepts it; persists the exact
    /// bytes; swaps its snapshot into ``policy``. Decisions in flight finish under the old one.
    /// - Parameters:
    ///   - pointer: The channel pointer, as downloaded.
    ///   - now: The time the update starts: every date is judged by it.
    ///   - fetch: Downloads the artifact the verified pointer names — at most its
    ///     `artifactLength` bytes. What it throws is reported as ``UpdateFailure/fetchFailed(_:_:)``.
    /// - Returns: What happened, also sent on ``events``.
    @discardableResult
    public func install(
        pointer: [UInt8], at now: Date = Date(), fetch: @Sendable (VerifiedPointer) async throws -> [UInt8]
    ) async -> UpdateEvent {
        let verified: VerifiedPointer
        do {
            switch try acceptance.checkPointer(pointer, accepted: ratchet, failed: refusedIdentities, at: now) {
            case .unchanged(let same): return report(.unchanged(same.identity))
            case .pinEmbedded(let pin): return pinEmbedded(by: pin)
            case .fetch(let announced): verified = announced
            }
        } catch {
            return refuse(error)
        }
        let artifact: [UInt8]
        do { artifact = try await fetch(verified) } catch {
            return fail(.fetchFailed(verified.identity, "\(error)"))
        }
        // Another install may have finished during the fetch: judge the pointer again by what is known now.
        do {
            guard
                case .fetch = try acceptance.checkPointer(
                    verified.bytes, accepted: ratchet, failed: refusedIdentities, at: now)
            else { return report(.unchanged(verified.identity)) }
        } catch {
            return refuse(error)
        }
        let accepted: AcceptedUpdate
        do { accepted = try acceptance.acceptArtifact(artifact, for: verified, at: now) } catch {
            return refuse(error)
        }
        do {
            try store.commit(
                StoredUpdate(identity: accepted.identity, pointer: verified.bytes, artifact: accepted.artifactBytes))
        } catch {
            return fail(.notPersisted(accepted.identity, error))
        }
        activate(accepted, origin: .update)
        ratchet = accepted.identity
        return report(.installed(accepted.identity))
    }

    /// The kill switch: the embedded bundle decides again. The pin is not persisted (the store
    /// keeps updates, not pins): after a restart the persisted update launches until the
    /// channel's pointer is read again.
    private func pinEmbedded(by pin: VerifiedPointer) -> UpdateEvent {
        let update: AcceptedUpdate
        if let embeddedUpdate {
            update = embeddedUpdate
        } else {
            do { update = try acceptance.acceptEmbedded(embedded) } catch { return refuse(error) }
            embeddedUpdate = update
        }
        activate(update, origin: .embedded)
        ratchet = pin.identity
        return report(.pinnedEmbedded(pin.identity))
    }

    private func activate(_ update: AcceptedUpdate, origin: PolicyOrigin) {
        policy.activate(PolicySnapshot(decider: update.decider, origin: origin, identity: update.identity))
        active = update.identity
        self.origin = origin
        expires = update.expires
        lastFailure = nil
    }

    /// Remembers a refused update when the refusal is about the update itself, then fails.
    private func refuse(_ refusal: UpdateRefusal) -> UpdateEvent {
        if refusal.isRemembered, let identity = refusal.identity, !refusedIdentities.contains(identity) {
            refusedIdentities.insert(identity)
            do { try store.recordFailure(identity) } catch {
                logger.error(
                    "\(identity) is refused, but the store could not remember it (\(error)); after a restart it is tried again"
                )
            }
        }
        return fail(.refused(refusal))
    }

    private func fail(_ failure: UpdateFailure) -> UpdateEvent {
        lastFailure = failure
        if case .notPersisted = failure {
            logger.error("\(failure); the active bundle stays: \(active)")
        } else {
            logger.warning("\(failure); the active bundle stays: \(active)")
        }
        return report(.failed(failure))
    }

    private func report(_ event: UpdateEvent) -> UpdateEvent {
        switch event {
        case .installed, .pinnedEmbedded, .launched: logger.info("\(event)")
        default: break
        }
        continuation.yield(event)
        return event
    }
}
