/// Where the bundle of a ``PolicySnapshot`` came from.
public enum PolicyOrigin: String, Sendable, Hashable, CustomStringConvertible {
    /// Built by the app itself: a ``Router`` made from a route table or a bundle, or its
    /// `load(bundle:)` and `load(routes:)`.
    case app
    /// The artifact embedded in the app: the floor when no update is persisted or every one is refused.
    case embedded
    /// The update persisted as current, verified again at launch.
    case persisted
    /// The last-known-good update, used at launch when the persisted current one no longer verifies.
    case lastKnownGood = "last-known-good"
    /// An update installed while the app runs.
    case update

    /// The raw value: `app`, `embedded`, `persisted`, `last-known-good`, `update`.
    public var description: String { rawValue }
}
