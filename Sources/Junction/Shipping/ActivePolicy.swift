import Foundation
public import JunctionCore

/// The policy in force: one ``PolicySnapshot`` at a time, swapped whole while requests are
/// being decided.
///
/// Every decision reads ``current`` once and decides under that snapshot to the end; a
/// swap (``activate(_:)``) affects only the decisions that start after it. The lock is held
/// only to copy or replace the snapshot reference — never while deciding, so a slow rule
/// never delays a swap and a swap never delays a decision for longer than a pointer copy.
///
/// ```swift
/// let policy = ActivePolicy(PolicySnapshot(decider: try Decider(bundle: embedded), origin: .embedded))
/// let router = Router(policy: policy)
/// policy.activate(PolicySnapshot(decider: accepted.decider, origin: .update, identity: accepted.identity))
/// ```
public final class ActivePolicy: @unchecked Sendable {
    // Sound because `snapshot` is read and written only while `lock` is held, and a
    // PolicySnapshot is immutable and Sendable. An NSLock (a pthread mutex) rather than
    // Synchronization.Mutex: the thread sanitizer understands the former, not the latter's
    // raw futex waits, and the swap-under-load test runs under it.
    private let lock = NSLock()
    private var snapshot: PolicySnapshot

    /// A policy holding its first snapshot.
    /// - Parameter snapshot: The snapshot to decide under until the first swap.
    public init(_ snapshot: PolicySnapshot) {
        self.snapshot = snapshot
    }

    /// The snapshot decisions start under now.
    public var current: PolicySnapshot {
        lock.lock()
        defer { lock.unlock() }
        return snapshot
    }

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
    /// under the one they started with.
    /// - Parameter snapshot: The new snapshot.
    /// - Returns: The snapshot it replaced.
    @discardableResult
    public func activate(_ snapshot: PolicySnapshot) -> PolicySnapshot {
        lock.lock()
        defer { lock.unlock() }
        let previous = self.snapshot
        self.snapshot = snapshot
        return previous
    }

    /// Replaces the current snapshot with one made from it — a new bundle with the same
    /// Swift interceptors, or the same bundle with other interceptors — without losing a
    /// swap that another caller makes meanwhile: `make` runs outside the lock, and runs
    /// again on the newer snapshot when the current one changed before the swap.
    /// - Parameter make: Builds the replacement from the snapshot it replaces.
    /// - Returns: The snapshot swapped in.
    /// - Throws: What `make` throws; nothing is swapped then.
    @discardableResult
    public func update<Failure: Error>(_ make: (PolicySnapshot) throws(Failure) -> PolicySnapshot)
        throws(Failure) -> PolicySnapshot
    {
        while true {
            let base = current
            let replacement = try make(base)
            lock.lock()
            let swapped = snapshot === base
            if swapped { snapshot = replacement }
            lock.unlock()
            if swapped { return replacement }
        }
    }
}
