public import JunctionCore

/// What the app sets from Swift at run time, laid over whichever bundle is in force: routes
/// registered in code (JLRoutes' `addRoute:`, MGJRouter's `registerURLPattern:`), group
/// memberships changed in code (BBRouter's `addPathsToGroup`) and Swift interceptors added
/// with `router.add(_:)`.
///
/// The layer belongs to the ``ActivePolicy``: every snapshot it activates — a bundle the
/// router loads or one the update installer accepts — decides with it, so what the app
/// registers survives every bundle swap. (Async interceptors and the router's registrations
/// of pages, tasks and dispatchers belong to the ``Router``, which keeps them too.) Where a bundle's route has the same name as a code route,
/// or a pattern that matches the same URLs, **the bundle's route wins**: the code route is
/// set aside while that bundle is in force (``Decider/setAsideRoutes`` says which and why)
/// and comes back with a bundle that no longer has it. Memberships apply, by route name, to
/// the bundle's routes and the code routes alike, after the table's own `groups:`; one for a
/// route the table lacks waits for a table that has it.
///
/// ```swift
/// var layer = AppRoutes()
/// try layer.add(Route(name: "promo", pattern: "myapp://promo/:id", isExported: true))
/// try layer.setMembership(route: "promo", group: "login", isMember: true)
/// let decider = try Decider(bundle: bundle, appRoutes: layer)
/// ```
public struct AppRoutes: Sendable, Equatable {
    /// A group membership set in code: whether a route is in a group, whatever the table says.
    public struct Membership: Sendable, Hashable {
        /// The route's name.
        public var route: String
        /// The group's name.
        public var group: String
        /// Whether the route is in the group.
        public var isMember: Bool

        /// A membership.
        /// - Parameters:
        ///   - route: The route's name.
        ///   - group: The group's name.
        ///   - isMember: Whether the route is in the group.
        public init(route: String, group: String, isMember: Bool) {
            self.route = route
            self.group = group
            self.isMember = isMember
        }
    }

    /// The routes registered in code, in registration order; their names are unique.
    public private(set) var routes: [Route] = []
    /// The memberships set in code, one per route and group, in the order they were first set:
    /// the groups added to a route follow its own, in that order.
    public private(set) var memberships: [Membership] = []
    /// The index in ``memberships`` of each route and group's.
    private var membershipIndex: [MembershipKey: Int] = [:]

    private struct MembershipKey: Hashable {
        let route, group: String
    }

    /// The Swift interceptors added at run time, in the order added; their names are unique.
    var interceptorEntries: [InterceptorEntry] = []

    /// A Swift interceptor of the layer, equal only to itself: closures do not compare, so
    /// two layers are the same when they hold the same registrations.
    struct InterceptorEntry: Sendable, Equatable {
        let interceptor: SwiftInterceptor
        let registration = Registration()

        /// One `addInterceptor` call.
        final class Registration: Sendable {}

        static func == (a: Self, b: Self) -> Bool { a.registration === b.registration }
    }

    /// The most routes a layer holds: each change rebuilds the table, so registering routes
    /// one by one costs time that grows with their square — add many at once with
    /// ``add(_:)-(Route)`` on an array instead.
    public static let maximumRoutes = 10_000
    /// The most memberships a layer holds.
    public static let maximumMemberships = 10_000

    /// An empty layer.
    public init() {}

    /// Whether the layer changes nothing.
    public var isEmpty: Bool { routes.isEmpty && memberships.isEmpty && interceptorEntries.isEmpty }

    /// The code route named `name`, if any.
    /// - Parameter name: A route name.
    /// - Returns: The route.
    public func route(named name: String) -> Route? {
        routes.first { $0.name == name }
    }

    /// Adds routes after those already registered. Each must be valid, and its name and
    /// pattern new among the code routes; whether it fits a bundle's table is decided when
    /// the layer is laid over one.
    /// - Parameter added: The routes.
    /// - Throws: `RouteTableError` for a route that is invalid (its pattern, its parameters,
    ///   its name) or whose name or pattern a code route has; the layer is unchanged then.
    public mutating func add(_ added: [Route]) throws(RouteTableError) {
        guard routes.count + added.count <= Self.maximumRoutes else {
            throw RouteTableError([
                Diagnostic(
                    .error,
                    "the app's code routes would be \(routes.count + added.count); at most \(Self.maximumRoutes) "
                        + "are kept — put routes that many in the bundle's table")
            ])
        }
        let taken = Set(routes.map(\.name))
        let reused = added.filter { taken.contains($0.name) }
        guard reused.isEmpty else {
            throw RouteTableError(
                reused.map {
                    Diagnostic(
                        .error, "a route named \"\($0.name)\" is already registered in code; remove it first",
                        route: $0.name)
                })
        }
        // Built together, the code routes report what is wrong with each new one, and a
        // name or a pattern two of them share.
        _ = try RouteTable(routes: routes + added)
        routes += added
    }

    /// Adds one route after those already registered.
    /// - Parameter route: The route.
    /// - Throws: `RouteTableError` as ``add(_:)-([Route])`` does.
    public mutating func add(_ route: Route) throws(RouteTableError) {
        try add([route])
    }

    /// Removes the code route named `name`.
    /// - Parameter name: Its name.
    /// - Returns: The route removed, or `nil` when no code route has that name.
    @discardableResult
    public mutating func removeRoute(named name: String) -> Route? {
        guard let index = routes.firstIndex(where: { $0.name == name }) else { return nil }
        return routes.remove(at: index)
    }

    /// Sets whether a route is in a group, replacing what an earlier call set for the two.
    /// - Parameters:
    ///   - route: The route's name.
    ///   - group: The group's name: non-empty, without spaces.
    ///   - isMember: Whether the route is in the group.
    /// - Throws: `RouteTableError` for a name that is empty or has spaces, or when the layer
    ///   holds ``maximumMemberships`` already.
    public mutating func setMembership(route: String, group: String, isMember: Bool) throws(RouteTableError) {
        for (kind, name) in [("route", route), ("group", group)] where !Self.isValidName(name) {
            throw RouteTableError([
                Diagnostic(
                    .error, "\(kind) name \"\(name.prefix(64))\" must be non-empty and without spaces",
                    route: kind == "route" ? route : nil)
            ])
        }
        let membership = Membership(route: route, group: group, isMember: isMember)
        let key = MembershipKey(route: route, group: group)
        if let index = membershipIndex[key] {
            memberships[index] = membership
            return
        }
        guard memberships.count < Self.maximumMemberships else {
            throw RouteTableError([
                Diagnostic(
                    .error,
                    "the app's group memberships would be more than \(Self.maximumMemberships); "
                        + "put them in the bundle's table (groups:)", route: route)
            ])
        }
        membershipIndex[key] = memberships.count
        memberships.append(membership)
    }

    /// Forgets what the layer set for a route and a group: the table's `groups:` decide again.
    /// - Parameters:
    ///   - route: The route's name.
    ///   - group: The group's name.
    /// - Returns: Whether the layer had set it.
    @discardableResult
    public mutating func clearMembership(route: String, group: String) -> Bool {
        guard let index = membershipIndex.removeValue(forKey: MembershipKey(route: route, group: group)) else {
            return false
        }
        memberships.remove(at: index)
        for (key, later) in membershipIndex where later > index { membershipIndex[key] = later - 1 }
        return true
    }

    /// A route's groups once the layer's memberships apply: its own, less those it was taken
    /// out of, then those it was put in, in the order they were set.
    /// - Parameter route: A route of a table.
    /// - Returns: Its groups under this layer.
    public func groups(of route: Route) -> [String] {
        Self.apply(memberships.filter { $0.route == route.name }, to: route.groups)
    }

    /// The memberships by route name, each route's in the order they were set: what laying
    /// the layer over a table reads once rather than once per route.
    func membershipsByRoute() -> [String: [Membership]] {
        Dictionary(grouping: memberships, by: \.route)
    }

    /// `groups` with `memberships` (all of one route) applied.
    static func apply(_ memberships: [Membership], to groups: [String]) -> [String] {
        var groups = groups
        for membership in memberships {
            if membership.isMember {
                if !groups.contains(membership.group) { groups.append(membership.group) }
            } else {
                groups.removeAll { $0 == membership.group }
            }
        }
        return groups
    }

    private static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.unicodeScalars.contains(where: \.properties.isWhitespace)
    }
}
