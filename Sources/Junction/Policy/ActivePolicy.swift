public import JunctionCore

/// The policy in force: one ``PolicySnapshot`` at a time, swapped whole while requests are
/// being decided.
///
/// Every decision reads ``current`` once and decides under that snapshot to the end; a
/// swap (``activate(_:)``) affects only the decisions that start after it. The lock is held
/// only to copy or replace the snapshot reference — never while deciding, so a slow rule
/// never delays a swap and a swap never delays a decision for longer than a pointer copy.
///
/// The app's own routes — registered and regrouped in code (``AppRoutes``) — belong to the
/// policy, not to a bundle: every snapshot it activates decides with them, whoever built it,
/// so a code route survives the installer's swaps as well as the router's.
///
/// ```swift
/// let policy = ActivePolicy(PolicySnapshot(decider: try Decider(bundle: embedded), origin: .embedded))
/// let router = Router(policy: policy)
/// policy.activate(PolicySnapshot(decider: accepted.decider, origin: .update, identity: accepted.identity))
/// ```
public final class ActivePolicy: Sendable {
    /// What the lock guards; PolicySnapshot and AppRoutes are immutable and Sendable.
    private struct State {
        var snapshot: PolicySnapshot
        /// The app's layer: the current snapshot's decider has it, unless ``activate(_:)``
        /// could not rebuild a snapshot with it.
        var layer: AppRoutes
        /// Counts changes of `layer`, so a swap built for an older layer is built again.
        var layerGeneration = 0
    }

    /// Held only to copy or replace the state — never while deciding or building.
    private let state: Locked<State>

    /// A policy holding its first snapshot; the app's layer is the one its decider has.
    /// - Parameter snapshot: The snapshot to decide under until the first swap.
    public init(_ snapshot: PolicySnapshot) {
        state = Locked(State(snapshot: snapshot, layer: snapshot.decider.appRoutes))
    }

    /// The snapshot decisions start under now.
    public var current: PolicySnapshot { state.withLock { $0.snapshot } }

    /// The routes and group memberships the app set in code, which every snapshot decides with.
    public var appRoutes: AppRoutes { state.withLock { $0.layer } }

    /// Decides one request under the current snapshot: read once, so the whole decision
    /// sees one bundle even when a swap happens meanwhile.
    /// - Parameters:
    ///   - request: What was asked.
    ///   - context: What rules read as `ctx`.
    /// - Returns: The decision, with its trace.
    public func decide(_ request: RouteRequest, context: ContextSnapshot = .empty) -> Decision {
        current.decider.decide(request, context: context)
    }

    /// Swaps in a snapshot: decisions that start from now on use it; those in flight finish
    /// under the one they started with. A snapshot whose decider lacks the app's layer
    /// (``appRoutes``) — one the installer built — is rebuilt with it first, keeping its
    /// origin and identity; should that fail (a rule of the bundle names a code route the
    /// layer no longer has), the snapshot is swapped in as it was built.
    /// - Parameter snapshot: The new snapshot.
    /// - Returns: The snapshot it replaced.
    @discardableResult
    public func activate(_ snapshot: PolicySnapshot) -> PolicySnapshot {
        while true {
            let (layer, generation) = readLayer()
            let layered = (try? snapshot.with(appRoutes: layer)) ?? snapshot
            let previous: PolicySnapshot? = state.withLock { state in
                guard generation == state.layerGeneration else { return nil }
                defer { state.snapshot = layered }
                return state.snapshot
            }
            if let previous { return previous }
        }
    }

    /// Replaces the current snapshot with one made from it — a new bundle with the same
    /// Swift interceptors, or the same bundle with other interceptors — without losing a
    /// swap that another caller makes meanwhile: `make` runs outside the lock, and runs
    /// again on the newer snapshot when the current one changed before the swap. The
    /// replacement decides with the app's layer, as ``activate(_:)`` makes sure.
    /// - Parameter make: Builds the replacement from the snapshot it replaces.
    /// - Returns: The snapshot swapped in.
    /// - Throws: What `make` throws; nothing is swapped then.
    @discardableResult
    public func update<Failure: Error>(_ make: (PolicySnapshot) throws(Failure) -> PolicySnapshot)
        throws(Failure) -> PolicySnapshot
    {
        while true {
            let (base, layer, generation) = read()
            let built = try make(base)
            let replacement = (try? built.with(appRoutes: layer)) ?? built
            if swap(from: base, generation: generation, to: replacement) { return replacement }
        }
    }

    /// Changes the app's layer and swaps in the current snapshot rebuilt with it. `make`
    /// runs outside the lock, and again when another change of the layer came first. A swap
    /// meanwhile does not undo the change, nor make it start over: the layer is committed,
    /// so every later ``activate(_:)`` carries it, and the snapshot in force is rebuilt with
    /// it unless a swap already did — however busy the swapping, the change lands.
    /// - Parameter make: Builds the replacement from the current snapshot and layer, with
    ///   ``PolicySnapshot/with(appRoutes:)`` (checking the change against that snapshot's
    ///   table); its decider's layer becomes the policy's.
    /// - Returns: The snapshot in force after the change.
    /// - Throws: What `make` throws; nothing changes then.
    @discardableResult
    public func updateAppRoutes(
        _ make: (_ current: PolicySnapshot, _ layer: AppRoutes) throws(BundleError) -> PolicySnapshot
    ) throws(BundleError) -> PolicySnapshot {
        while true {
            let (base, layer, generation) = read()
            let replacement = try make(base, layer)
            let changed = replacement.decider.appRoutes
            let outcome: (committed: Int, swapped: Bool)? = state.withLock { state in
                guard generation == state.layerGeneration else { return nil }
                state.layer = changed
                state.layerGeneration += 1
                let swapped = state.snapshot === base
                if swapped { state.snapshot = replacement }
                return (state.layerGeneration, swapped)
            }
            guard let outcome else { continue }
            return outcome.swapped ? replacement : relayerCurrent(outcome.committed)
        }
    }

    /// Rebuilds the snapshot in force with the layer of generation `committed`, after a swap
    /// built for the layer before it won the race: done at once when a later swap already
    /// carries the layer, or when a later change of the layer takes over.
    private func relayerCurrent(_ committed: Int) -> PolicySnapshot {
        while true {
            let (base, layer, generation) = read()
            guard generation == committed, base.decider.appRoutes != layer else { return base }
            let rebuilt = (try? base.with(appRoutes: layer)) ?? base
            if swap(from: base, generation: generation, to: rebuilt) { return rebuilt }
        }
    }

    private func read() -> (PolicySnapshot, AppRoutes, Int) {
        state.withLock { ($0.snapshot, $0.layer, $0.layerGeneration) }
    }

    private func readLayer() -> (AppRoutes, Int) {
        state.withLock { ($0.layer, $0.layerGeneration) }
    }

    private func swap(from base: PolicySnapshot, generation: Int, to replacement: PolicySnapshot) -> Bool {
        state.withLock { state in
            guard state.snapshot === base, generation == state.layerGeneration else { return false }
            state.snapshot = replacement
            return true
        }
    }
}
