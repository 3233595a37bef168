import JunctionCore

extension Router {
    /// What the policy in force can lead to that nothing is registered for: every route
    /// target with no page factory or task (and no ``NavigationTarget`` of that name), and
    /// every dispatched scheme with no dispatcher — each with the registered name nearest
    /// to it. Call it at launch, once everything is registered, so a typo
    /// (`register(page: "ProductPage")` for a route whose target is `product`) shows in
    /// development rather than when a user taps; ``canOpen(_:source:)`` only says `false`.
    ///
    /// ```swift
    /// for missing in router.verifyRegistrations() { assertionFailure("\(missing)") }
    /// ```
    /// - Returns: The missing registrations, targets in table order then schemes sorted;
    ///   empty when the router can carry out everything the policy leads to.
    public func verifyRegistrations() -> [MissingRegistration] {
        let routes = decider.routes
        var needing: [String: [String]] = [:]
        var order: [String] = []
        // Names and targets only: a table compiling as it is used is not compiled for this.
        for index in 0..<routes.count {
            let (name, target) = routes.nameAndTarget(ofRouteAt: index)
            guard !isRegistered(target), NavigationTarget(rawValue: target) == nil else { continue }
            if needing[target] == nil { order.append(target) }
            needing[target, default: []].append(name)
        }
        let registered = (Array(pageFactories.keys) + Array(tasks.keys)).sorted()
        var missing = order.map { target in
            MissingRegistration(
                kind: .target, name: target, routes: needing[target] ?? [],
                nearest: Self.nearest(to: target, among: registered))
        }
        for scheme in routes.options.dispatchedSchemes.sorted() where dispatchers[scheme] == nil {
            missing.append(
                MissingRegistration(
                    kind: .scheme, name: scheme, routes: [],
                    nearest: Self.nearest(to: scheme, among: dispatchers.keys.sorted())))
        }
        return missing
    }

    /// The registered name most likely meant for `name`: a near spelling, else one that
    /// contains it or is contained in it, case aside (`product` → `ProductPage`).
    private static func nearest(to name: String, among registered: [String]) -> String? {
        if let near = NearestName.nearest(to: name, among: registered) { return near }
        let folded = name.lowercased()
        guard folded.count >= 3 else { return nil }
        return registered.first { candidate in
            let other = candidate.lowercased()
            return other.count >= 3 && (other.contains(folded) || folded.contains(other))
        }
    }
}
