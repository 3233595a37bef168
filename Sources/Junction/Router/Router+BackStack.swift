import JunctionCore

extension Router {
    /// The most pages a route's `meta.stack` builds under a link; entries beyond are ignored
    /// (each costs a decision and a page).
    public nonisolated static let maximumBackStack = 8

    /// The pages a link from outside the app builds under the page of `route` so that back
    /// behaves (`meta.stack: [home, orders]`), or `[]` when there is nothing to build.
    ///
    /// Applies to a push requested by a source other than `internal` (a cold-start link, a
    /// push, a universal link) when the visible stack is empty or holds exactly the first
    /// entries of the list — the app's start — so a link followed from inside the app, or
    /// while the user is elsewhere, never reshapes their stack. Each entry — a route name
    /// whose pattern is a plain URL, or a URL with `{name}` placeholders filled (percent-
    /// encoded) from the page's parameters — is decided as an `internal` request and must
    /// open a page of a registered factory; an entry that does not (rejected, gated, a
    /// task, nothing) is left out and logged, and the link still opens.
    func backStack(for route: Route, params: RouteParameters, _ pending: PendingOpen) async -> [Page] {
        guard pending.request.source != .internal, case .array(let entries)? = route.meta["stack"],
            !entries.isEmpty
        else { return [] }
        var decisions: [(Decision, Route)] = []
        for entry in entries.prefix(Self.maximumBackStack) {
            guard case .string(let text) = entry, let url = backStackURL(text, params: params) else {
                logger.warning(
                    "meta.stack of route \"\(route.name)\": \(entry) is neither a route name nor a URL; left out")
                continue
            }
            let decision = await decide(RouteRequest(url))
            decisionObserver?(decision)
            guard case .open = decision.outcome, let reached = decision.match?.route,
                pageFactories[reached.target] != nil
            else {
                logger.warning(
                    "meta.stack of route \"\(route.name)\": \(url) decides \(decision.summary), not a page; left out")
                continue
            }
            decisions.append((decision, reached))
        }
        // Decided off the main actor: read the stack only now, and change it without awaiting.
        let visible = stack.visible.map(\.name)
        let names = decisions.map(\.1.name)
        guard visible.count <= names.count, Array(names.prefix(visible.count)) == visible else { return [] }
        var pages: [Page] = []
        for (decision, reached) in decisions.dropFirst(visible.count) {
            guard let factory = pageFactories[reached.target],
                let page = try? makePage(
                    factory, route: reached, decision: decision,
                    params: ParameterBinding.bind(decision, objects: [:]), exts: [:], source: .internal,
                    style: .push, onRemoved: nil)
            else {
                logger.warning(
                    "meta.stack of route \"\(route.name)\": the page of \"\(reached.name)\" could not be made; left out"
                )
                continue
            }
            pages.append(page)
        }
        return pages
    }

    /// An entry of `meta.stack` as a URL: a route's pattern for a route name, else the entry
    /// with its `{name}` placeholders filled; `nil` for a route name the table lacks.
    private func backStackURL(_ entry: String, params: RouteParameters) -> String? {
        guard entry.contains("://") || entry.hasPrefix("/") else { return decider.routes.route(named: entry)?.pattern }
        var url = ""
        var rest = Substring(entry)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            url += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            let value: String
            switch params[name] {
            case .string(let text)?: value = text
            case let other?: value = other.compactDescription
            case nil: value = ""
            }
            url += PercentEncoding.encode(value)
            rest = rest[rest.index(after: close)...]
        }
        return url + rest
    }
}
