import JunctionCore

extension RouteTableBuilder {
    /// Builds a table of patterns that rules declared (a redirect's `from`, an
    /// interceptor's `pattern`): its routes are the builder's own, so each problem's
    /// message says instead which kind of pattern it is in.
    /// - Parameters:
    ///   - what: The kind of pattern, for messages: `a redirect's from pattern`.
    ///   - validatedBefore: Whether these patterns passed ``RouteTableBuilder/build()`` before
    ///     (``RouteTableBuilder/buildValidatedBefore()``).
    /// - Returns: The table, `nil` when the builder holds no pattern or one does not
    ///   compile; and the problems, each message prefixed with `in <what>: `.
    func buildRulePatterns(_ what: String, validatedBefore: Bool = false) -> (
        table: RouteTable?, problems: [Diagnostic]
    ) {
        guard !routes.isEmpty else { return (nil, []) }
        do {
            return (try validatedBefore ? buildValidatedBefore() : build(), [])
        } catch {
            return (
                nil,
                error.diagnostics.map { diagnostic in
                    var diagnostic = diagnostic
                    diagnostic.message = "in \(what): " + diagnostic.message
                    diagnostic.route = nil
                    return diagnostic
                }
            )
        }
    }
}
