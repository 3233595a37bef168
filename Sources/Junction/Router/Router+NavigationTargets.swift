import JunctionCore

extension Router {
    /// Carries out a route whose target is a ``NavigationTarget``.
    func navigate(
        _ target: NavigationTarget, route: Route, decision: Decision, params: RouteParameters, _ pending: PendingOpen
    ) async -> Opening {
        let url = decision.uri?.string ?? decision.request.url
        func refuse(_ message: String) -> Opening {
            let error = RouterError(.cannotNavigate, message, url: url, route: route.name)
            pending.deliver(error.result)
            return .failed(error)
        }
        let animated = Self.isAnimated(pending.request.exts)
        switch target {
        case .tab:
            guard let index = params.int("index") else {
                return refuse(
                    "route \"\(route.name)\" leads to \(target.rawValue), which needs an int parameter \"index\"")
            }
            var rest: [String: any Sendable] = params.objects
            for (name, value) in params.values where name != "index" { rest[name] = value }
            guard let root = selectTab(index, params: rest, animated: animated) else {
                return refuse("there is no tab \(index); the app has \(stack.tabs.count)")
            }
            pending.deliver(.ok(root.name))
            return .navigated(to: root)
        case .back:
            let then = params.string("then")
            // With a page to open next, the pop is not shown by itself: one transition.
            let popAnimated = then == nil && animated
            let reached: Page?
            if let name = params.string("to") {
                guard stack.topmostVisibleIndex(named: name) != nil else {
                    return refuse("no page of route \"\(name)\" is on the visible stack to go back to")
                }
                reached = back(to: name, animated: popAnimated)
            } else if let name = params.string("before") {
                guard let index = stack.topmostVisibleIndex(named: name), index > 0 else {
                    return refuse("no page of route \"\(name)\" above a tab's root is on the visible stack")
                }
                reached = back(before: name, animated: popAnimated)
            } else {
                let count = params.int("count") ?? 1
                guard count >= 0, count < stack.visible.count else {
                    return refuse(
                        "cannot go back \(count) page\(count == 1 ? "" : "s"): \(max(stack.visible.count - 1, 0)) stand above the root"
                    )
                }
                reached = count == 0 ? stack.top : back(count: count, animated: popAnimated)
            }
            guard let then else {
                pending.deliver(.ok(reached?.name))
                return .navigated(to: reached)
            }
            // The next URL keeps the caller's source: a link from outside cannot lift it
            // past the exported check by going through back.
            let next = PendingOpen(
                request: RouteRequest(then, exts: pending.request.exts, source: pending.request.source),
                objects: [:], style: nil, onResult: pending.onResult)
            return await perform(next)
        }
    }
}
