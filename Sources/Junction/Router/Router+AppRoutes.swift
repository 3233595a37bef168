public import JunctionCore

extension Router {
    /// The routes registered and the group memberships set in code (``AppRoutes``): the
    /// policy keeps them across every bundle swap.
    public var appRoutes: AppRoutes { policy.appRoutes }

    // MARK: Routes in code

    /// Registers routes in code — JLRoutes' `addRoute:`, MGJRouter's `registerURLPattern:` —
    /// merged into the table in force beside the bundle's routes and rules, which apply to
    /// them as to any route (group policies, global interceptors, `exported`). They stay
    /// through every later bundle, loaded here or installed by the updater; where a later
    /// bundle has a route of the same name or the same pattern, its route wins and the code
    /// route is set aside while it is in force (``Decider/setAsideRoutes``).
    ///
    /// Register the target too — a page, task or dispatcher named as the route's `target`
    /// — or use ``add(_:page:)`` to do both.
    /// - Parameter routes: The routes, added at once: one rebuild of the table for them all.
    /// - Throws: `BundleError` for a route that is invalid, or whose name or pattern a route
    ///   of the table in force has (the bundle's would win, so it could never open);
    ///   nothing changes then.
    public func add(routes: [Route]) throws(BundleError) {
        try policy.updateAppRoutes { current, layer throws(BundleError) in
            var changed = layer
            do throws(RouteTableError) { try changed.add(routes) } catch { throw BundleError(error.diagnostics) }
            let replacement = try current.with(appRoutes: changed)
            let added = Set(routes.map(\.name))
            let overridden = replacement.decider.setAsideRoutes.filter { added.contains($0.route.name) }
            guard overridden.isEmpty else {
                throw BundleError(
                    overridden.map {
                        Diagnostic(
                            .error,
                            "code route \"\($0.route.name)\" (\($0.route.pattern)) could never open: \($0.reason); "
                                + "give it another name or pattern", route: $0.route.name)
                    })
            }
            return replacement
        }
    }

    /// Registers one route in code; see ``add(routes:)``.
    /// - Parameter route: The route.
    /// - Throws: `BundleError` as ``add(routes:)`` does.
    public func add(_ route: Route) throws(BundleError) {
        try add(routes: [route])
    }

    /// Registers a route in code with the page it opens, in one step: the route as
    /// ``add(_:)-(Route)`` adds it, then the factory under its `target`, replacing any.
    /// - Parameters:
    ///   - route: The route.
    ///   - page: Makes the page; a throw reaches the opener as ``RouterError/Code/targetFailed``.
    /// - Throws: `BundleError` as ``add(routes:)`` does; nothing is registered then.
    public func add(_ route: Route, page: @escaping @MainActor (PageRequest) throws -> Any) throws(BundleError) {
        try add(routes: [route])
        register(page: route.target, page)
    }

    /// Registers a route in code with the synchronous task it runs, in one step: the route
    /// as ``add(_:)-(Route)`` adds it, then the task under its `target`, replacing any.
    /// - Parameters:
    ///   - route: The route.
    ///   - task: The task.
    /// - Throws: `BundleError` as ``add(routes:)`` does; nothing is registered then.
    public func add(_ route: Route, task: @escaping @Sendable (TaskRequest) throws -> (any Sendable)?)
        throws(BundleError)
    {
        try add(routes: [route])
        register(task: route.target, task)
    }

    /// Removes a route registered in code; its target stays registered.
    /// - Parameter name: The route's name.
    /// - Returns: Whether a code route had that name.
    /// - Throws: `BundleError` when the route is the table's, not a code route (only a bundle
    ///   removes its routes), or when a rule of the bundle names it; nothing changes then.
    @discardableResult
    public func removeRoute(named name: String) throws(BundleError) -> Bool {
        var removed = false
        try policy.updateAppRoutes { current, layer throws(BundleError) in
            var changed = layer
            removed = changed.removeRoute(named: name) != nil
            guard removed else {
                if let own = current.decider.baseRoutes.route(named: name) {
                    throw BundleError([
                        Diagnostic(
                            .error,
                            "route \"\(name)\" is the table's\(own.location.map { " (\($0))" } ?? ""), not one "
                                + "added in code: only a new bundle or table removes it", route: name)
                    ])
                }
                return current
            }
            return try current.with(appRoutes: changed)
        }
        return removed
    }

    // MARK: Groups

    /// The routes of the table in force in a group — its own `groups:` with the memberships
    /// set in code applied (BBRouter's `pathsInGroup`) — in table order.
    /// - Parameter group: The group's name.
    /// - Returns: The routes.
    public func routes(inGroup group: String) -> [Route] {
        let routes = decider.routes
        return (0..<routes.count).filter { routes.groups(ofRouteAt: $0).contains(group) }.map(routes.route(at:))
    }

    /// Puts a route into a group from code (BBRouter's `addPathsToGroup`): the group's
    /// policies — the bundle's `group` rules, Swift interceptors scoped to it — apply to it
    /// from the next decision on, after those of its own groups. The membership stays through
    /// every later bundle that has the route.
    /// - Parameters:
    ///   - route: The route's name: a route of the table in force or one added in code.
    ///   - group: The group's name.
    /// - Throws: `BundleError` when no route has that name (with the nearest name) or a name
    ///   is empty or has spaces; nothing changes then.
    public func add(route: String, toGroup group: String) throws(BundleError) {
        try setMembership(route: route, group: group, isMember: true)
    }

    /// Takes a route out of a group from code, whatever the table's `groups:` say: the group's
    /// policies no longer apply to it. The change stays through every later bundle.
    /// - Parameters:
    ///   - route: The route's name: a route of the table in force or one added in code.
    ///   - group: The group's name.
    /// - Throws: `BundleError` when no route has that name (with the nearest name) or a name
    ///   is empty or has spaces; nothing changes then.
    public func remove(route: String, fromGroup group: String) throws(BundleError) {
        try setMembership(route: route, group: group, isMember: false)
    }

    private func setMembership(route: String, group: String, isMember: Bool) throws(BundleError) {
        try policy.updateAppRoutes { current, layer throws(BundleError) in
            let table = current.decider.routes
            guard table.route(named: route) != nil || layer.route(named: route) != nil else {
                throw BundleError([
                    Diagnostic(
                        .error,
                        "no route is named \"\(route.prefix(64))\""
                            + NearestName.suggestion(for: route, among: table.routes.map(\.name))
                            + " (a group takes routes of the table in force or added in code)",
                        route: route)
                ])
            }
            var changed = layer
            do throws(RouteTableError) {
                try changed.setMembership(route: route, group: group, isMember: isMember)
            } catch {
                throw BundleError(error.diagnostics)
            }
            return try current.with(appRoutes: changed)
        }
    }
}
