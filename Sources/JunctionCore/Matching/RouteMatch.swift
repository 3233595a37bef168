/// A URL matched to a route: the route, the captured path parameters and the query.
///
/// `RouteMatch` has value semantics; its fields live in one shared box, so passing a
/// match along the pipeline costs one reference count, not one per field.
public struct RouteMatch: Sendable {
    private struct Fields: Sendable {
        let route: Route
        let uri: URI
        let parameters: PathParameters
        let plusAsSpace: Bool
        let routeIndex: Int
    }

    private let storage: CopyOnWrite<Fields>

    init(route: Route, uri: URI, parameters: PathParameters, plusAsSpace: Bool, routeIndex: Int) {
        storage = CopyOnWrite(
            Fields(route: route, uri: uri, parameters: parameters, plusAsSpace: plusAsSpace, routeIndex: routeIndex))
    }

    /// The route that matched.
    public var route: Route { storage.fields.route }
    /// The URL that matched.
    public var uri: URI { storage.fields.uri }
    /// The path parameters, decoded once, in pattern order.
    public var parameters: PathParameters { storage.fields.parameters }
    /// Whether the table reads `+` in a query as a space.
    var plusAsSpace: Bool { storage.fields.plusAsSpace }
    /// The route's position in its table's ``RouteTable/routes``.
    package var routeIndex: Int { storage.fields.routeIndex }

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
