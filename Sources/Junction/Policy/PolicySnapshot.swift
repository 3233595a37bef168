public import JunctionCore
public import JunctionLua

/// Everything one decision needs from one bundle, fixed at once: the ``Decider`` — the
/// bundle's routes, rules and tests with the app's Swift interceptors and options built
/// into it — plus which update it is and where it came from.
///
/// A snapshot never changes. Activating a bundle makes a new snapshot and swaps it into an
/// ``ActivePolicy``; a decision holds the snapshot it started with, so it can never see the
/// routes of one bundle and the rules of another.
///
/// Whoever builds the decider decides which Swift interceptors and options it carries: a
/// ``Router`` uses the current snapshot's (``Decider/interceptors``, ``Decider/options``),
/// the update installer uses its acceptance policy's — the same ones its self-tests and the
/// app's invariants ran under.
public final class PolicySnapshot: Sendable, CustomStringConvertible {
    /// Decides requests under this snapshot's routes, rules and Swift interceptors.
    public let decider: Decider
    /// Where the bundle came from.
    public let origin: PolicyOrigin
    /// The update it is (the pointer's seq and the artifact's SHA-256), if it was shipped as one.
    public let identity: UpdateIdentity?

    /// A snapshot of a decider.
    /// - Parameters:
    ///   - decider: The decider, built with the app's Swift interceptors and options.
    ///   - origin: Where its bundle came from.
    ///   - identity: The update it is; `nil` for a bundle the app built itself.
    public init(decider: Decider, origin: PolicyOrigin, identity: UpdateIdentity? = nil) {
        self.decider = decider
        self.origin = origin
        self.identity = identity
    }

    /// This snapshot — its origin and identity — with a decider that has another layer of
    /// the app's routes.
    /// - Parameter appRoutes: The layer.
    /// - Returns: This snapshot when its decider has that layer already, else a new one.
    /// - Throws: `BundleError` when a rule names a code route the layer no longer has.
    public func with(appRoutes: AppRoutes) throws(BundleError) -> PolicySnapshot {
        let decider = try decider.with(appRoutes: appRoutes)
        return decider === self.decider ? self : PolicySnapshot(decider: decider, origin: origin, identity: identity)
    }

    /// The route table.
    public var routes: RouteTable { decider.routes }

    /// The bundle whose rules run, if any.
    public var bundle: RuleBundle? { decider.bundle }

    /// `shop@4 seq 7 (sha256 3f2a…c1d0) from update`: the bundle, the update, the origin.
    public var description: String {
        let name = bundle.map { "\($0.manifest.name)@\($0.manifest.version)" } ?? "routes only"
        return "\(name)\(identity.map { " \($0)" } ?? "") from \(origin)"
    }
}
