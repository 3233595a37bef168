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

    /// How this snapshot differs from a bundle's context schema (the manifest's
    /// `context:`): the same as `schema.validate(self)`.
    ///
    /// ```swift
    /// assert(snapshot.validate(against: schema).isEmpty, "\(snapshot.validate(against: schema))")
    /// ```
    /// - Parameter schema: The schema, such as `bundle.manifest.context`.
    /// - Returns: The problems, empty when the snapshot fits; see ``ContextSchema/validate(_:)``.
    public func validate(against schema: ContextSchema) -> [ContextProblem] {
        schema.validate(self)
    }
}
