public import JunctionCore

/// A route the app registered in code that the bundle in force overrides: a route of the
/// bundle has its name, or a pattern that matches the same URLs. The bundle's route wins;
/// the code route is back as soon as a bundle without the clash is in force.
public struct SetAsideRoute: Sendable, Equatable, CustomStringConvertible {
    /// The code route.
    public let route: Route
    /// Which route of the bundle overrides it and how, for people.
    public let reason: String

    /// A route set aside.
    /// - Parameters:
    ///   - route: The code route.
    ///   - reason: Which route of the bundle overrides it and how.
    public init(route: Route, reason: String) {
        self.route = route
        self.reason = reason
    }

    /// `code route "promo" (myapp://promo/:id) is set aside: …`.
    public var description: String {
        "code route \"\(route.name)\" (\(route.pattern)) is set aside: \(reason)"
    }
}
