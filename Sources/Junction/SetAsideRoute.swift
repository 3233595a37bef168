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

extension SetAsideRoute {
    /// The most routes ``warning(_:after:)`` names; the rest are counted, so a bundle that
    /// overrides ten thousand code routes logs one line of ordinary length.
    static let routesNamed = 5

    /// A line for the log when a swap sets code routes aside, or `nil` when it sets none.
    /// - Parameters:
    ///   - setAside: The routes the table in force overrides.
    ///   - swap: What was swapped in, for the line: `shop@4 seq 7 (…) from update`.
    package static func warning(_ setAside: [SetAsideRoute], after swap: String) -> String? {
        guard !setAside.isEmpty else { return nil }
        let named = setAside.prefix(routesNamed).map { "\"\($0.route.name)\" (\($0.reason))" }
        let more = setAside.count - named.count
        return "\(swap) sets aside \(setAside.count) route\(setAside.count == 1 ? "" : "s") the app registered in "
            + "code, which its routes override: " + named.joined(separator: "; ")
            + (more > 0 ? "; and \(more) more" : "")
            + " — rename the bundle's route, or the app's, to keep both"
    }
}
