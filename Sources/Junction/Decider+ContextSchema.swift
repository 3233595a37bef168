public import JunctionCore

extension Decider {
    /// The context keys its bundle's rules read, with their types (the manifest's
    /// `context:`), or `nil` without a bundle or a schema. Check a snapshot with it where
    /// the app makes one — `decide` never does:
    ///
    /// ```swift
    /// assert(decider.contextSchema?.validate(snapshot).isEmpty ?? true)
    /// ```
    public var contextSchema: ContextSchema? { bundle?.manifest.context }
}
