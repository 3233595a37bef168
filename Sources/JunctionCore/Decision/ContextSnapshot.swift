/// The app state rules may read as `ctx`: user, app version, platform, locale, flags.
///
/// A snapshot is immutable. Make a new one when the app state changes and keep passing
/// the same one while it doesn't: the rule engine converts a snapshot for Lua once and
/// reuses it for every decision that passes the same instance.
///
/// ```swift
/// let context = ContextSnapshot(["user": ["id": 42, "age": 15], "app_version": "5.2.0"])
/// ```
public final class ContextSnapshot: Sendable {
    /// The values, by name.
    public let values: [String: RuleValue]

    /// A snapshot of `values`.
    /// - Parameter values: What rules read as `ctx.NAME`.
    public init(_ values: [String: RuleValue] = [:]) {
        self.values = values
    }

    /// The empty snapshot.
    public static let empty = ContextSnapshot()
}
