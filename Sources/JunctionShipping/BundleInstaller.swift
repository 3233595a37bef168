public import Foundation
public import Logging
public import Junction

/// Runs the device's bundle: launches from what the store kept — the persisted current
/// update, verified again; else the last-known-good; else the bundle embedded in the app —
/// and installs updates: pointer check → the caller fetches the artifact → acceptance →
/// persist → activate. An update that is refused, cannot be fetched or cannot be persisted
/// leaves the active snapshot deciding; a refused one is remembered and not tried again,
/// while a newer seq still is. A kill switch (`pin_embedded`) is persisted too: the embedded
/// bundle decides, across restarts, until a higher seq installs.
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
/// interceptors and decider options — the ones the invariants ran under; the policy lays
/// the app's run-time layer (interceptors added with `router.add(_:)`, code routes, group
/// edits) over each one it activates.
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
    private let whenStale: StaleBundlePolicy
    private let logger: Logger
    private var embeddedUpdate: AcceptedUpdate?
    /// The identity accepted last: what a pointer's seq must exceed.
    private var ratchet: UpdateIdentity?
    /// The channel's announcement the device holds: the update deciding, the kill switch in
    /// force, or the stale update set aside; `nil` when it holds none (the embedded bundle
    /// after every persisted update was dropped). A ratchet that names anything else names
    /// an update a launch dropped, which its own pointer may install again.
    private var held: UpdateIdentity?
    /// The SHA-256 of the pointer bytes that announced ``held``: what a remembered ETag must
    /// name before the updater may send it back. `nil` when nothing is held.
    private(set) var heldPointerSHA256: String?
    /// The announcement the device holds (see ``held``), for the updater's `304`.
    var heldIdentity: UpdateIdentity? { held }
    private var pinnedBy: UpdateIdentity?
    private var setAside: UpdateIdentity?
    private var refusedIdentities: Set<UpdateIdentity>
    private var active: UpdateIdentity
    private var origin: PolicyOrigin
    private var expires: Date
    private var lastFailure: UpdateFailure?
    /// How the checks of the embedded bundle a launch chose, deferred, stand.
    private var embeddedCheck: EmbeddedCheck
    /// Those checks, running after the bundle began deciding; set once, by the launch.
    private nonisolated let embeddedCheckTask = Locked<Task<UpdateRefusal?, Never>?>(nil)

    /// The checks of the embedded bundle: passed (or never deferred), still running, or failed.
    enum EmbeddedCheck {
        case passed
        case pending
        case failed(UpdateRefusal)
    }

    /// Launches. A persisted kill switch pins the embedded bundle. Otherwise the first of
    /// the persisted current update and the last-known-good that passes acceptance — every
    /// check but the dates, and but its self-tests and the app's invariants when it carries
    /// this acceptance's stamp for its bytes (``UpdateAcceptance/reverify(_:)``; a pass
    /// without one records it) — becomes the active snapshot, else the embedded bundle. A
    /// persisted current update that no longer passes (damaged, refused by a stricter app)
    /// is dropped from the store; one past its expiry is not — it launches stale, or, under
    /// ``StaleBundlePolicy/fallBackToEmbedded``, stays persisted while the embedded bundle
    /// decides. The ratchet and the refused identities stay.
    /// - Parameters:
    ///   - acceptance: The checks updates are held to, with the app's keyring, invariants,
    ///     Swift interceptors and decider options.
    ///   - store: Where accepted updates are persisted.
    ///   - embedded: The artifact shipped inside the app, as `Data` or bytes: the floor.
    ///   - whenStale: What decides once the update in force is past its expiry.
    ///   - now: The time of the launch.
    ///   - logger: Where events are logged; label `junction.update` by default.
    ///
    /// When nothing else passed, the embedded bundle decides as soon as it is verified and
    /// compiled: its own tests and the app's invariants run right after, on a background
    /// task with engines of their own (``embeddedChecks()`` waits for them). Should they
    /// fail — a mistake in the app's build, as `junction bundle build` ran the tests and the
    /// invariants are the app's — it keeps deciding, for nothing else passed: the failure is
    /// logged as an error, sent on ``events`` as ``UpdateFailure/refused(_:)``, and
    /// ``status(at:)`` says `failed` while it decides; a kill switch or a stale update's
    /// expiry then refuses it, as an embedded bundle that fails its checks always was. With
    /// a kill switch in force or a stale update set aside, its checks run before it decides.
    /// - Returns: The installer, its ``policy`` deciding.
    /// - Throws: ``UpdateRefusal`` when the embedded artifact itself is refused — a build
    ///   mistake in the app (an artifact signed by a key not in the keyring, a bundle that
    ///   does not compile, one for a newer host) that no update can repair — and it is needed.
    public static func launch(
        acceptance: UpdateAcceptance, store: BundleStore, embedded: some Collection<UInt8>,
        whenStale: StaleBundlePolicy = .keepDeciding, at now: Date = Date(),
        logger: Logger = Logger(label: "junction.update")
    ) throws(UpdateRefusal) -> BundleInstaller {
        let embedded = Array(embedded)
        let state = store.load()
        var skipped: [UpdateEvent] = []
        var pin: UpdateIdentity?
        if let stored = state.pin {
            do { pin = try acceptance.reverify(pin: stored.pointer).identity } catch {
                skipped.append(.pinIgnored(error))
                logger.warning("the persisted kill switch \(stored.identity) is not honoured: \(error)")
            }
        }
        var launched: (update: AcceptedUpdate, origin: PolicyOrigin)?
        if pin == nil, let current = state.current {
            do {
                launched = (
                    try Self.reverify(current, acceptance: acceptance, store: store, logger: logger), .persisted
                )
            } catch {
                skipped.append(.skipped(.persisted, error))
                logger.warning("the persisted update \(current.identity) is not launched: \(error)")
                do { try store.dropCurrent() } catch {
                    logger.error("the persisted update could not be dropped, it is tried again next launch: \(error)")
                }
            }
        }
        if pin == nil, launched == nil, let lastKnownGood = state.lastKnownGood {
            do {
                launched = (
                    try Self.reverify(lastKnownGood, acceptance: acceptance, store: store, logger: logger),
                    .lastKnownGood
                )
            } catch {
                skipped.append(.skipped(.lastKnownGood, error))
                logger.warning("the last-known-good update \(lastKnownGood.identity) is not launched: \(error)")
            }
        }
        // The pointer of what is held: the kill switch, else the update launched (or set aside).
        let heldPointer: [UInt8]? =
            if pin != nil {
                state.pin?.pointer
            } else if let launched {
                (launched.origin == .lastKnownGood ? state.lastKnownGood : state.current)?.pointer
            } else {
                nil
            }
        var setAside: UpdateIdentity?
        if whenStale == .fallBackToEmbedded, let stale = launched, stale.update.isStale(at: now) {
            setAside = stale.update.identity
            launched = nil
        }
        // Only when nothing else passed does the embedded bundle decide before its checks: a
        // kill switch or a stale update set aside has them run first, as an update's are.
        let deferred = pin == nil && setAside == nil
        let chosen: (update: AcceptedUpdate, origin: PolicyOrigin)
        if let launched {
            chosen = launched
        } else {
            chosen = (try acceptance.acceptEmbedded(embedded, selfChecks: deferred ? .deferred : .now), .embedded)
        }
        let installer = BundleInstaller(
            acceptance: acceptance, store: store, embedded: embedded, whenStale: whenStale, launched: chosen.update,
            origin: chosen.origin, ratchet: state.ratchet, refused: Set(state.failed), logger: logger,
            held: pin ?? setAside ?? (chosen.origin == .embedded ? nil : chosen.update.identity), pinnedBy: pin,
            setAside: setAside,
            heldPointerSHA256: heldPointer.map(SHA256Text.of),
            embeddedCheck: chosen.origin == .embedded && deferred ? .pending : .passed)
        for event in skipped { installer.continuation.yield(event) }
        var launchEvents: [UpdateEvent] = []
        if let pin { launchEvents.append(.pinnedEmbedded(pin)) }
        if let setAside { launchEvents.append(.setAsideStale(setAside)) }
        launchEvents.append(.launched(chosen.update.identity, chosen.origin))
        for event in launchEvents {
            Self.log(event, to: logger)
            installer.continuation.yield(event)
        }
        if chosen.origin == .embedded, deferred {
            let update = chosen.update
            let task = Task.detached(priority: .utility) { [weak installer] () -> UpdateRefusal? in
                var refusal: UpdateRefusal?
                do throws(UpdateRefusal) { try acceptance.runSelfChecks(update) } catch { refusal = error }
                await installer?.recordEmbeddedCheck(refusal)
                return refusal
            }
            installer.embeddedCheckTask.withLock { $0 = task }
        }
        return installer
    }

    /// Waits for the checks of the embedded bundle a launch chose because nothing else
    /// passed: its own tests and the app's invariants, which run after it began deciding.
    /// - Returns: Why it fails them; `nil` when it passes, or when no such checks ran.
    public func embeddedChecks() async -> UpdateRefusal? {
        await embeddedCheckTask.withLock { $0 }?.value
    }

    /// Records how the embedded bundle's deferred checks ended. A failure is an error of the
    /// app's build: logged, sent on the events and the status while that bundle decides —
    /// and the embedded bundle is refused, as before these checks were deferred, where a
    /// kill switch or a stale update would activate it again.
    private func recordEmbeddedCheck(_ refusal: UpdateRefusal?) {
        guard let refusal else {
            embeddedCheck = .passed
            return
        }
        embeddedCheck = .failed(refusal)
        guard origin == .embedded, active == embeddedUpdate?.identity else {
            logger.warning("the embedded bundle, no longer deciding, fails its checks on this device: \(refusal)")
            return
        }
        logger.error(
            "the embedded bundle fails its checks on this device: \(refusal); it keeps deciding, as nothing else passed — fix the app's build"
        )
        continuation.yield(.failed(.refused(refusal)))
    }

    deinit {
        embeddedCheckTask.withLock { $0?.cancel() }
    }

    /// A stored update verified again (``UpdateAcceptance/reverify(_:)``): its tests and the
    /// app's invariants run only when it carries no stamp of this acceptance for its bytes,
    /// and then, when it passes, the stamp is recorded for the next launch.
    private static func reverify(
        _ stored: StoredUpdate, acceptance: UpdateAcceptance, store: BundleStore, logger: Logger
    ) throws(UpdateRefusal) -> AcceptedUpdate {
        let update = try acceptance.reverify(stored)
        if let stamp = acceptance.stamp(artifactSHA256: stored.identity.artifactSHA256, pointer: stored.pointer),
            stored.acceptance != stamp
        {
            do { try store.recordAcceptance(stamp, of: stored) } catch {
                logger.error("\(stored.identity) passed in full, but its acceptance could not be recorded: \(error)")
            }
        }
        return update
    }

    private init(
        acceptance: UpdateAcceptance, store: BundleStore, embedded: [UInt8], whenStale: StaleBundlePolicy,
        launched: AcceptedUpdate, origin: PolicyOrigin, ratchet: UpdateIdentity?, refused: Set<UpdateIdentity>,
        logger: Logger, held: UpdateIdentity?, pinnedBy: UpdateIdentity?, setAside: UpdateIdentity?,
        heldPointerSHA256: String?, embeddedCheck: EmbeddedCheck
    ) {
        self.embeddedCheck = embeddedCheck
        self.held = held
        self.heldPointerSHA256 = heldPointerSHA256
        self.pinnedBy = pinnedBy
        self.setAside = setAside
        self.acceptance = acceptance
        self.store = store
        self.embedded = embedded
        self.whenStale = whenStale
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
    /// update did not go in, else ``UpdateCondition/stale`` past the active bundle's expiry
    /// or while a stale update is set aside, else ``UpdateCondition/ok``. Under
    /// ``StaleBundlePolicy/fallBackToEmbedded``, an update found past its expiry here is set
    /// aside first: the embedded bundle is activated.
    /// - Parameter now: The time to judge expiry by.
    /// - Returns: The status.
    public func status(at now: Date = Date()) -> UpdateStatus {
        if whenStale == .fallBackToEmbedded, origin != .embedded, now >= expires { setAsideStale() }
        let condition: UpdateCondition =
            if let lastFailure {
                .failed(lastFailure)
            } else if origin == .embedded, active == embeddedUpdate?.identity, case .failed(let refusal) = embeddedCheck
            {
                .failed(.refused(refusal))
            } else if setAside != nil || now >= expires {
                .stale
            } else {
                .ok
            }
        return UpdateStatus(
            active: active, origin: origin, expires: expires, condition: condition, pinnedBy: pinnedBy,
            setAside: setAside)
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
            switch try acceptance.checkPointer(
                pointer, accepted: ratchet, failed: refusedIdentities, at: now, acceptedIsHeld: ratchet == held)
            {
            case .unchanged(let same): return report(.unchanged(same.identity))
            case .pinEmbedded(let pin): return pinEmbedded(by: pin)
            case .notInRollout(let other):
                // Superseded: the failure the status reports is no longer the channel's news.
                lastFailure = nil
                return report(.notInRollout(other.identity, percent: other.pointer.rollout.percent))
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
                    verified.bytes, accepted: ratchet, failed: refusedIdentities, at: now,
                    acceptedIsHeld: ratchet == held)
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
                StoredUpdate(
                    identity: accepted.identity, pointer: verified.bytes, artifact: accepted.artifactBytes,
                    acceptance: acceptance.stamp(
                        artifactSHA256: accepted.identity.artifactSHA256, pointer: verified.bytes)
                ))
        } catch {
            return fail(.notPersisted(accepted.identity, error))
        }
        activate(accepted, origin: .update)
        (ratchet, held, pinnedBy, setAside, lastFailure) = (accepted.identity, accepted.identity, nil, nil, nil)
        heldPointerSHA256 = SHA256Text.of(verified.bytes)
        return report(.installed(accepted.identity))
    }

    /// The kill switch: the embedded bundle decides again, and the store records the pin so
    /// a restart honours it. A pin that cannot be persisted still takes effect now — stopping
    /// a bad update matters more than remembering why — and is reported `notPersisted`.
    private func pinEmbedded(by pin: VerifiedPointer) -> UpdateEvent {
        let update: AcceptedUpdate
        do { update = try embeddedBundle() } catch { return refuse(error) }
        var notPersisted: StoreError?
        do { try store.pin(StoredPin(identity: pin.identity, pointer: pin.bytes)) } catch { notPersisted = error }
        activate(update, origin: .embedded)
        (ratchet, held, pinnedBy, setAside, lastFailure) = (pin.identity, pin.identity, pin.identity, nil, nil)
        heldPointerSHA256 = SHA256Text.of(pin.bytes)
        if let notPersisted { return fail(.notPersisted(pin.identity, notPersisted)) }
        return report(.pinnedEmbedded(pin.identity))
    }

    /// Under ``StaleBundlePolicy/fallBackToEmbedded``: the embedded bundle decides in place of
    /// the stale update, which stays persisted and held.
    private func setAsideStale() {
        let stale = active
        do { activate(try embeddedBundle(), origin: .embedded) } catch {
            _ = fail(.refused(error))
            return
        }
        setAside = stale
        report(.setAsideStale(stale))
    }

    /// The embedded bundle, accepted once — its checks passed: one whose deferred checks
    /// failed is refused, one whose checks still run has them run now.
    private func embeddedBundle() throws(UpdateRefusal) -> AcceptedUpdate {
        if let embeddedUpdate {
            switch embeddedCheck {
            case .passed: break
            case .failed(let refusal): throw refusal
            case .pending:
                try acceptance.runSelfChecks(embeddedUpdate)
                embeddedCheck = .passed
            }
            return embeddedUpdate
        }
        let update = try acceptance.acceptEmbedded(embedded)
        embeddedUpdate = update
        return update
    }

    private func activate(_ update: AcceptedUpdate, origin: PolicyOrigin) {
        policy.activate(PolicySnapshot(decider: update.decider, origin: origin, identity: update.identity))
        // The app's code routes joined the bundle's at activation: say which its routes override.
        let current = policy.current
        if current.identity == update.identity,
            let warning = SetAsideRoute.warning(current.decider.setAsideRoutes, after: current.description)
        {
            logger.warning("\(warning)")
        }
        active = update.identity
        self.origin = origin
        expires = update.expires
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

    @discardableResult
    private func report(_ event: UpdateEvent) -> UpdateEvent {
        Self.log(event, to: logger)
        continuation.yield(event)
        return event
    }

    /// What changes the policy is logged here; what was skipped or failed, where it happens.
    private static func log(_ event: UpdateEvent, to logger: Logger) {
        switch event {
        case .installed, .pinnedEmbedded, .launched: logger.info("\(event)")
        case .setAsideStale: logger.warning("\(event)")
        default: break
        }
    }
}
