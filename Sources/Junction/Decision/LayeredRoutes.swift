import JunctionCore

/// A table with the app's layer laid over it: the table's routes with the layer's group
/// memberships applied, then the layer's code routes but those the table overrides.
///
/// The table wins every clash, by the rule ``AppRoutes`` states: a code route whose name a
/// table route has, or whose pattern the table builder finds the same as a table route's (or
/// that does not compile under the table's options), is set aside with the reason.
struct LayeredRoutes {
    /// The table the decider matches with.
    let table: RouteTable
    /// The code routes the table overrides.
    let setAside: [SetAsideRoute]

    /// Lays `layer` over `base`.
    /// - Throws: `BundleError` only for a problem of the table's own routes, which its
    ///   builder passed before; never for a code route.
    init(_ layer: AppRoutes, over base: RouteTable) throws(BundleError) {
        guard !layer.isEmpty else {
            (table, setAside) = (base, [])
            return
        }
        var setAside: [SetAsideRoute] = []
        var kept: [Route] = []
        for route in layer.routes {
            if let own = base.route(named: route.name) {
                let place = own.location.map { " (\($0))" } ?? ""
                setAside.append(
                    SetAsideRoute(
                        route: route,
                        reason: "the bundle's route \"\(own.name)\"\(place) has the same name; the bundle's wins"))
            } else {
                kept.append(route)
            }
        }
        let memberships = layer.membershipsByRoute()
        func regrouped(_ route: Route) -> Route {
            guard let changes = memberships[route.name] else { return route }
            var route = route
            route.groups = AppRoutes.apply(changes, to: route.groups)
            return route
        }
        let baseRoutes = memberships.isEmpty ? base.routes : base.routes.map(regrouped)
        func build(_ extra: [Route]) throws(RouteTableError) -> RouteTable {
            var builder = RouteTableBuilder(options: base.options)
            for route in baseRoutes { builder.add(route) }
            for route in extra { builder.add(regrouped(route)) }
            return try builder.build()
        }
        do {
            table = try build(kept)
        } catch {
            // A clash is reported on the later route — the code route — so every finding names
            // one to set aside; one that names a table route is the table's own problem.
            let keptNames = Set(kept.map(\.name))
            var reasons: [String: String] = [:]
            for finding in error.diagnostics {
                guard let name = finding.route, keptNames.contains(name) else { throw BundleError(error.diagnostics) }
                if reasons[name] == nil { reasons[name] = finding.message + "; the bundle's route wins" }
            }
            for route in kept {
                if let reason = reasons[route.name] { setAside.append(SetAsideRoute(route: route, reason: reason)) }
            }
            do {
                table = try build(kept.filter { reasons[$0.name] == nil })
            } catch {
                throw BundleError(error.diagnostics)
            }
        }
        self.setAside = setAside
    }
}
