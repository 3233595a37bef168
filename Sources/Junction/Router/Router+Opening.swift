public import JunctionCore

extension Router {
    /// Opens a URL: decides it under the loaded routes and rules (off the main actor),
    /// then shows the page, runs the task, hands the URL to its scheme's dispatcher, opens
    /// a gate first, or reports why nothing opened.
    ///
    /// ```swift
    /// await router.open("myapp://address/pick", style: .present) { result in
    ///     address = result.data as? String
    /// }
    /// ```
    /// - Parameters:
    ///   - url: The URL.
    ///   - params: Extra parameters, any `Sendable` values: rule values (strings, numbers,
    ///     flags, arrays and dictionaries of them) reach rules as `req.params`; others
    ///     (model objects) reach only the target, in ``RouteParameters/objects``.
    ///   - exts: Non-business options: `animated` (a bool), anything rules read as `req.exts`.
    ///   - style: How to show a page; by default the route's `meta.presentation`
    ///     (`push`, `present`, `replace`, `root`), else `push`.
    ///   - source: Who asks; routes not `exported` open only for `internal`.
    ///   - onResult: Gets the result exactly once: a page's when the page is removed,
    ///     `cancelled` when it is removed without one; at once for anything else.
    /// - Returns: What the open did.
    @discardableResult
    public func open(
        _ url: String, params: [String: any Sendable] = [:], exts: [String: RuleValue] = [:],
        style: PresentationStyle? = nil, source: RequestSource = .internal,
        onResult: (@MainActor (RouteResult) -> Void)? = nil
    ) async -> Opening {
        await start(url, content: nil, params: params, exts: exts, style: style, source: source, onResult: onResult)
    }

    /// Starts an `open`, with or without a page the app made: held until ``ready()`` when
    /// the router holds opens, else performed now.
    func start(
        _ url: String, content: PageContent?, params: [String: any Sendable], exts: [String: RuleValue],
        style: PresentationStyle?, source: RequestSource, onResult: (@MainActor (RouteResult) -> Void)?
    ) async -> Opening {
        let (values, objects) = SendableBridge.split(params)
        var pending = PendingOpen(
            request: RouteRequest(url, params: values, exts: exts, source: source), objects: objects, style: style,
            onResult: onResult)
        pending.content = content
        if let opening = await holdIfNotReady(pending) { return opening }
        return await perform(pending)
    }

    /// Whether opening `url` would show something: a page or task with a registered
    /// target, a dispatcher's scheme, a rule's answer, or a gate in front of one. Runs
    /// the decision (rules are pure), changes nothing.
    /// - Parameters:
    ///   - url: The URL.
    ///   - source: Who would ask.
    /// - Returns: `false` when it would be rejected, reach nothing, or reach a target
    ///   that is not registered.
    public func canOpen(_ url: String, source: RequestSource = .internal) -> Bool {
        let decision = decider.decide(RouteRequest(url, source: source), context: context)
        switch decision.outcome {
        case .open:
            return decision.match.map {
                isRegistered($0.route.target) || NavigationTarget(rawValue: $0.route.target) != nil
            } ?? false
        case .respond, .gate: return true
        case .handOver(let scheme): return dispatchers[scheme] != nil
        case .unmatched: return decision.uri?.scheme.map { dispatchers[$0] != nil } ?? false
        case .reject: return false
        }
    }

    // MARK: - The pipeline

    /// Decides and carries out one request; the opener's result is delivered exactly once.
    func perform(_ pending: PendingOpen) async -> Opening {
        // An open made while another is carried out is part of it; the rest go in turn.
        let ticket = Self.isCarryingOut ? nil : openTurns.take()
        var pending = pending
        pending.request = withStackTop(pending.request)
        willOpen?(pending.request)
        let decision = await decide(
            pending.request, passedGates: pending.passedGates, askingUndefinedRoute: true)
        decisionObserver?(decision)
        if let ticket { await openTurns.wait(for: ticket) }
        let opening = await Self.$isCarryingOut.withValue(true) { await carryOut(decision, pending) }
        if let ticket { openTurns.done(ticket) }
        await transitions.reached()
        didOpen?(pending.request, opening)
        return opening
    }

    /// Whether the current task is carrying out an open: opens it makes skip the line.
    @TaskLocal static var isCarryingOut = false

    /// The key of ``RouteRequest/exts`` that tells rules and interceptors the route of the
    /// page on top when the router decides (`req.exts.top_route`).
    public nonisolated static let topRouteExt = "top_route"

    /// `request` with the route of the page on top now as its `top_route` ext (none with an
    /// empty stack): the router's own key, so a caller's value is replaced.
    func withStackTop(_ request: RouteRequest) -> RouteRequest {
        var request = request
        request.exts[Self.topRouteExt] = stack.top.map { .string($0.name) }
        return request
    }

    private func carryOut(_ decision: Decision, _ pending: PendingOpen) async -> Opening {
        let url = decision.uri?.string ?? decision.request.url
        switch decision.outcome {
        case .open:
            guard let match = decision.match else {
                return fail(RouterError(.unknownRoute, "no route", url: url), pending)
            }
            return await openTarget(match.route, decision, pending)
        case .respond(let value):
            pending.deliver(.ok(value))
            return .answered(value)
        case .reject(let rejection):
            return fail(
                RouterError(
                    .rejected, rejection.description, url: url, route: decision.match?.route.name,
                    rejection: rejection), pending)
        case .gate(let gateURL, let resume):
            return await openGate(gateURL, resume: resume, decision, pending)
        case .handOver(let scheme):
            return handOver(scheme, decision, pending)
        case .unmatched:
            if let scheme = decision.uri?.scheme, dispatchers[scheme] != nil {
                return handOver(scheme, decision, pending)
            }
            return fail(RouterError(.unknownRoute, unmatchedMessage(decision), url: url), pending)
        }
    }

    /// Why nothing took the URL of `decision`, from what the app and the bundle have:
    /// each of route, fallback, dispatcher and undefined-route handler, and what to add.
    private func unmatchedMessage(_ decision: Decision) -> String {
        let scheme = decision.uri?.scheme ?? "its scheme"
        let fallbacksRan = decision.trace.steps.contains { $0.stage == .fallback }
        var parts = [
            "no route matches it",
            fallbacksRan ? "the bundle's fallback rules let it pass" : "the bundle has no fallback rule",
            "no dispatcher is registered for \(scheme)",
        ]
        if undefinedRouteHandler == nil {
            parts.append("no undefinedRouteHandler is set")
            return parts.joined(separator: ", ")
                + " — add a route, a fallback, a dispatcher for \(scheme) or an undefinedRouteHandler"
        }
        parts.append("the undefinedRouteHandler named no URL for it (it is asked once per open)")
        return parts.joined(separator: ", ")
    }

    private func fail(_ error: RouterError, _ pending: PendingOpen) -> Opening {
        if error.code != .rejected && error.code != .unknownRoute {
            logger.warning("\(error)")
        }
        pending.deliver(error.result)
        return .failed(error)
    }

    private func openTarget(_ route: Route, _ decision: Decision, _ pending: PendingOpen) async -> Opening {
        let url = decision.uri?.string ?? decision.request.url
        let params: RouteParameters
        do { params = try ParameterBinding.bind(decision, objects: pending.objects) } catch {
            return fail(error, pending)
        }
        let content = pending.content.flatMap { decision.wasRedirected ? nil : $0 }
        let factory: (@MainActor (PageRequest) throws -> Any)? =
            if let content { { _ in content.value } } else { pageFactories[route.target] }
        if let factory {
            var style = pending.style ?? Self.style(of: route)
            if pending.replacing == nil,
                let page = reuse(
                    route, style: style, url: url, params: params, exts: pending.request.exts,
                    onResult: pending.onResult)
            {
                return .reused(page)
            }
            let below = style == .push ? await backStack(for: route, params: params, pending) : []
            if let gatePage = pending.replacing, stack.top === gatePage, below.isEmpty {
                style = .replace  // resumed after its gate: one transition, the gate's page replaced
            }
            let page: Page
            do {
                page = try makePage(
                    factory, route: route, decision: decision, params: params, exts: pending.request.exts,
                    source: pending.request.source, style: style, onRemoved: pending.onResult)
            } catch {
                return fail(error, pending)
            }
            page.gate = pending.gate
            for page in below { show(page, style: .push, exts: ["animated": false]) }
            show(page, style: style, exts: pending.request.exts)
            return .opened(page)
        }
        if factory == nil, tasks[route.target] == nil, let navigation = NavigationTarget(rawValue: route.target) {
            return await navigate(navigation, route: route, decision: decision, params: params, pending)
        }
        if let task = tasks[route.target] {
            let request = TaskRequest(
                route: route, url: url, params: params, exts: pending.request.exts, source: pending.request.source,
                decision: decision)
            do {
                let value: (any Sendable)?
                switch task {
                case .sync(let body): value = try body(request)
                case .async(let body): value = try await Self.runOffMain(body, request)
                }
                pending.deliver(.ok(value))
                return .answered(value)
            } catch {
                return fail(
                    RouterError(
                        .targetFailed, "the task \"\(route.target)\" threw: \(error)", url: url, route: route.name,
                        underlying: error), pending)
            }
        }
        return fail(
            RouterError(
                .noTarget,
                "route \"\(route.name)\" leads to target \"\(route.target)\", which has no page factory or task registered",
                url: url, route: route.name), pending)
    }

    /// For a route launched `singleTop` or `singleTask`, the page of it that this open
    /// reuses — brought to the top (the pages above a `singleTask` page are popped), its
    /// URL and parameters renewed, `onResult` added to those who get its result — or `nil`
    /// when a new page is pushed. Only pushes and presents reuse: `replace` and `root`
    /// say where the page goes.
    func reuse(
        _ route: Route, style: PresentationStyle, url: String, params: RouteParameters, exts: [String: RuleValue],
        onResult: (@MainActor (RouteResult) -> Void)?
    ) -> Page? {
        guard style == .push || style == .present else { return nil }
        let animated = Self.isAnimated(exts)
        let page: Page
        switch route.launchMode {
        case .standard:
            return nil
        case .singleTop:
            guard let top = stack.top, top.name == route.name else { return nil }
            page = top
        case .singleTask:
            guard let index = stack.topmostVisibleIndex(named: route.name) else { return nil }
            page = stack.visible[index]
            if let change = stack.unwind(toVisible: index) { apply(change, animated: animated) }
        }
        page.renew(url: url, params: params)
        page.addOpener(onResult)
        transitions.enqueue([.renew(page)], animated: animated)
        return page
    }

    /// Calls a page factory and wraps what it made in a ``Page`` (not yet on the stack).
    /// - Throws: ``RouterError/Code/targetFailed`` when the factory throws.
    func makePage(
        _ factory: @MainActor (PageRequest) throws -> Any, route: Route, decision: Decision, params: RouteParameters,
        exts: [String: RuleValue], source: RequestSource, style: PresentationStyle,
        onRemoved: (@MainActor (RouteResult) -> Void)?
    ) throws(RouterError) -> Page {
        let url = decision.uri?.string ?? decision.request.url
        let id = makePageID()
        let content: Any
        do {
            content = try factory(
                PageRequest(
                    id: id, route: route, url: url, params: params, exts: exts, source: source, style: style,
                    decision: decision))
        } catch {
            throw RouterError(
                .targetFailed, "the page factory of \"\(route.target)\" threw: \(error)", url: url, route: route.name,
                underlying: error)
        }
        return Page(
            id: id, name: route.name, url: url, params: params, content: content,
            presentation: style == .root ? .root : .pushed, onRemoved: onRemoved)
    }

    @concurrent
    nonisolated static func runOffMain(
        _ body: @Sendable (TaskRequest) async throws -> (any Sendable)?, _ request: TaskRequest
    ) async throws -> (any Sendable)? {
        try await body(request)
    }

    /// Opens the gate's page; when it finishes with `ok`, the original request runs the
    /// whole pipeline again (the context has changed), else its opener gets `cancelled`.
    private func openGate(_ gateURL: String, resume: Bool, _ decision: Decision, _ pending: PendingOpen) async
        -> Opening
    {
        let url = decision.uri?.string ?? decision.request.url
        var gated = pending
        gated.passedGates.append(gateURL)
        let hold = GateResume(gated: gated, resumes: resume)
        var gateRequest = PendingOpen(
            request: RouteRequest(gateURL, source: .internal, gatedRequests: pending.request.gatedRequests + [url]),
            objects: [:], style: nil,
            onResult: { [weak self] result in
                // Resumed in the gate page's place already (finish(_:with:) on top): done.
                guard let self, !hold.isSettled else { return }
                hold.isSettled = true
                if result.code == .ok && resume {
                    self.track { hold.end(await self.perform(gated)) }
                } else {
                    let error = RouterError(
                        .cancelled,
                        "\(gateURL) ended \(result.code)" + (resume ? "" : "; the gate does not resume"), url: url)
                    gated.deliver(RouteResult(.cancelled, message: error.message))
                    hold.end(.failed(error))
                }
            })
        gateRequest.gate = hold
        let opening = await perform(gateRequest)
        if opening.page?.gate !== hold, !hold.isSettled {
            // The gate opened no page of its own to finish (a task, a failure): the request
            // has ended with it.
            hold.end(opening)
        }
        return .gated(url: gateURL, by: opening)
    }

    private func handOver(_ scheme: String, _ decision: Decision, _ pending: PendingOpen) -> Opening {
        let url = decision.uri?.string ?? decision.request.url
        guard let dispatcher = dispatchers[scheme] else {
            return fail(
                RouterError(
                    .noDispatcher,
                    "the URL is handed to the \(scheme) dispatcher, and none is registered; register(dispatcher: \"\(scheme)\")",
                    url: url), pending)
        }
        let style = pending.style ?? .push
        let handOver = HandOver(
            scheme: scheme, url: url, params: RouteParameters(values: decision.params, objects: pending.objects),
            exts: pending.request.exts, source: pending.request.source, style: style, decision: decision,
            id: makePageID())
        do {
            switch try dispatcher(handOver) {
            case .page(let content):
                let page = Page(
                    id: handOver.id, name: scheme, url: url, params: handOver.params, content: content,
                    presentation: .pushed, onRemoved: pending.onResult)
                show(page, style: style, exts: pending.request.exts)
                return .handedOver(scheme: scheme, page: page)
            case .handled(let value):
                pending.deliver(.ok(value))
                return .handedOver(scheme: scheme, page: nil)
            case .openedElsewhere:
                awaitResultElsewhere(handOver, onResult: pending.onResult)
                return .handedOver(scheme: scheme, page: nil)
            }
        } catch {
            return fail(
                RouterError(
                    .targetFailed, "the \(scheme) dispatcher threw: \(error)", url: url, underlying: error), pending)
        }
    }

    /// The route's `meta.presentation`, else `push`.
    static func style(of route: Route) -> PresentationStyle {
        if case .string(let name)? = route.meta["presentation"], let style = PresentationStyle(rawValue: name) {
            return style
        }
        return .push
    }
}
