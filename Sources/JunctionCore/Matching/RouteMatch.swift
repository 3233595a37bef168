/// A URL matched to a route: the route, the captured path parameters and the query.
public struct RouteMatch: Sendable {
    /// The route that matched.
    public let route: Route
    /// The URL that matched.
    public let uri: URI
    /// The path parameters, decoded once, in pattern order.
    public let parameters: PathParameters
    /// Whether the table reads `+` in a query as a space.
    let plusAsSpace: Bool
    /// The route's position in its table's ``RouteTable/routes``.
    package let routeIndex: Int

    /// The query's items, decoded per the table's `plusAsSpace` option.
    public var query: QueryItems { uri.queryItems(plusAsSpace: plusAsSpace) }

    /// A parameter converted to its declared type: the path parameter of that name,
    /// else the first query value, else the declared default.
    /// - Parameter name: A parameter name.
    /// - Returns: The value, or `nil` when absent or not convertible to the declared type.
    public func value(_ name: String) -> ParameterValue? {
        let declaration = route.parameter(named: name)
        let type = declaration?.type ?? .string
        if let text = parameters[name] ?? query.first(name) {
            return type.convert(text)
        }
        return declaration?.defaultValue
    }
}
