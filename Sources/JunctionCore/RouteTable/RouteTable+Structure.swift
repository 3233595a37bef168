extension RouteTable {
    /// The structure of a route's pattern, for static analysis.
    /// - Parameter index: The route's position in ``routes``.
    /// - Returns: Its expansions with typed parameters; `nil` only if the pattern no
    ///   longer parses, which a built table rules out.
    package func structure(ofRouteAt index: Int) -> PatternStructure? {
        let route = routes[index]
        guard
            let pattern = try? RoutePattern(
                route.pattern, hostAsPath: options.hostAsPath, maximumExpansions: options.maximumExpansionsPerRoute)
        else { return nil }
        return PatternStructure(pattern, parameters: route.parameters)
    }
}
