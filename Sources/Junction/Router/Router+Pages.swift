public import JunctionCore

extension Router {
    /// Decides `url` under the routes and rules and makes its page without showing it —
    /// HHRouter's `matchController`, MGJRouter's `objectForURL`: the app embeds it, shows
    /// it in a popover, or passes it to ``show(_:style:)`` later. A task's value comes from
    /// `invoke` the same way; a page the app made itself goes through the rules with
    /// ``open(_:content:params:exts:style:source:onResult:)``.
    ///
    /// ```swift
    /// let page = try await router.page(for: "myapp://user/42")
    /// container.embed(page.content as! UIViewController)
    /// ```
    ///
    /// Rules apply as to `open`, and ``decisionObserver`` sees the decision; the stack does
    /// not change and the undefined-route handler is not asked. A URL handed to a scheme's
    /// dispatcher calls it, and its `.page(content)` is the page.
    /// - Parameters:
    ///   - url: The URL.
    ///   - params: Extra parameters, as for `open`.
    ///   - exts: Non-business options.
    ///   - style: How ``show(_:style:)`` will show it by default; the route's
    ///     `meta.presentation` when `nil`, else `push`.
    ///   - source: Who asks.
    ///   - onResult: Gets the page's result when it leaves the stack, if it is ever shown.
    /// - Returns: The page, not on the stack.
    /// - Throws: `RouterError`: ``RouterError/Code/rejected``, ``RouterError/Code/gated``
    ///   (a rule wants another page first: `open` the URL instead),
    ///   ``RouterError/Code/notAPage`` (a task, a rule's answer, a dispatcher that handled it
    ///   elsewhere), ``RouterError/Code/unknownRoute``, ``RouterError/Code/noTarget``,
    ///   ``RouterError/Code/noDispatcher``, parameter errors, ``RouterError/Code/targetFailed``.
    public func page(
        for url: String, params: [String: any Sendable] = [:], exts: [String: RuleValue] = [:],
        style: PresentationStyle? = nil, source: RequestSource = .internal,
        onResult: (@MainActor (RouteResult) -> Void)? = nil
    ) async throws(RouterError) -> Page {
        let (values, objects) = SendableBridge.split(params)
        let request = withStackTop(RouteRequest(url, params: values, exts: exts, source: source))
        let decision = await decide(request)
        decisionObserver?(decision)
        let decided = decision.uri?.string ?? url
        func notAPage(_ what: String) -> RouterError {
            RouterError(.notAPage, "\(what), so there is no page to make; open or invoke the URL instead", url: decided)
        }
        let page: Page
        var shownStyle = style ?? .push
        switch decision.outcome {
        case .open:
            guard let route = decision.match?.route else { throw RouterError(.unknownRoute, "no route", url: decided) }
            guard let factory = pageFactories[route.target] else {
                if tasks[route.target] != nil { throw notAPage("route \"\(route.name)\" leads to a task") }
                throw RouterError(
                    .noTarget, "route \"\(route.name)\" leads to target \"\(route.target)\", which has no page factory",
                    url: decided, route: route.name)
            }
            let params = try ParameterBinding.bind(decision, objects: objects)
            shownStyle = style ?? Self.style(of: route)
            page = try makePage(
                factory, route: route, decision: decision, params: params, exts: request.exts, source: source,
                style: shownStyle, onRemoved: onResult)
        case .handOver(let scheme):
            page = try dispatchedPage(scheme, decision, objects: objects, request: request, onResult: onResult)
        case .unmatched:
            guard let scheme = decision.uri?.scheme, dispatchers[scheme] != nil else {
                throw RouterError(.unknownRoute, "no route, fallback or dispatcher takes this URL", url: decided)
            }
            page = try dispatchedPage(scheme, decision, objects: objects, request: request, onResult: onResult)
        case .respond:
            throw notAPage("a rule answers this URL with a value")
        case .reject(let rejection):
            throw RouterError(
                .rejected, rejection.description, url: decided, route: decision.match?.route.name, rejection: rejection)
        case .gate(let gateURL, _):
            throw RouterError(
                .gated, "a rule wants \(gateURL) opened first; open the URL to go through it", url: gateURL,
                route: decision.match?.route.name)
        }
        page.unshown = (request, shownStyle)
        return page
    }

    /// Shows a page that ``page(for:params:exts:style:source:onResult:)`` made, as `open`
    /// would have: launch modes apply, ``willOpen`` and ``didOpen`` are called with the
    /// request it was made for.
    /// - Parameters:
    ///   - page: The page; shown at most once.
    ///   - style: How to show it; by default the style it was made with.
    /// - Returns: What showing it did: `.opened(page)`, or `.reused` of a page already
    ///   there when the route's launch mode says so (`page` is then never shown, and its
    ///   opener gets its result with the reused page's).
    /// - Throws: ``RouterError/Code/alreadyShown`` when the page is or was on the stack.
    @discardableResult
    public func show(_ page: Page, style: PresentationStyle? = nil) throws(RouterError) -> Opening {
        guard let (request, madeStyle) = page.unshown else {
            throw RouterError(
                .alreadyShown, "page \(page.name) \(page.id) is or was on the stack; make another with page(for:)",
                url: page.url)
        }
        page.unshown = nil
        let style = style ?? madeStyle
        willOpen?(request)
        let opening: Opening
        if let route = decider.routes.route(named: page.name),
            let reused = reuse(
                route, style: style, url: page.url, params: page.params, exts: request.exts,
                onResult: { result in
                    // Never shown: its openers get the result of the page that stood in for it.
                    page.pendingResult = result
                    page.removed()
                })
        {
            opening = .reused(reused)
        } else {
            show(page, style: style, exts: request.exts)
            opening = .opened(page)
        }
        didOpen?(request, opening)
        return opening
    }

    private func dispatchedPage(
        _ scheme: String, _ decision: Decision, objects: [String: any Sendable], request: RouteRequest,
        onResult: (@MainActor (RouteResult) -> Void)?
    ) throws(RouterError) -> Page {
        let url = decision.uri?.string ?? request.url
        guard let dispatcher = dispatchers[scheme] else {
            throw RouterError(
                .noDispatcher, "the URL is handed to the \(scheme) dispatcher, and none is registered", url: url)
        }
        let handOver = HandOver(
            scheme: scheme, url: url, params: RouteParameters(values: decision.params, objects: objects),
            exts: request.exts, source: request.source, style: .push, decision: decision, id: makePageID())
        let outcome: HandOver.Outcome
        do { outcome = try dispatcher(handOver) } catch {
            throw RouterError(.targetFailed, "the \(scheme) dispatcher threw: \(error)", url: url, underlying: error)
        }
        switch outcome {
        case .page(let content):
            return Page(
                id: handOver.id, name: scheme, url: url, params: handOver.params, content: content,
                presentation: .pushed, onRemoved: onResult)
        case .handled:
            throw RouterError(
                .notAPage, "the \(scheme) dispatcher handled the URL outside the stack; there is no page", url: url)
        case .openedElsewhere:
            awaitResultElsewhere(handOver, onResult: onResult)
            throw RouterError(
                .notAPage,
                "the \(scheme) dispatcher opened a page on another stack (\(handOver.id)); its result reaches onResult",
                url: url)
        }
    }

    /// Opens a page the app made itself under the rules and hooks of `url`, as `open` would:
    /// rejections and gates apply (after a gate, the same content is shown), launch modes
    /// apply, and the hooks see the request. When the decision opens the route `url`
    /// matches, `content` is shown in place of what its page factory would make (none need
    /// be registered); when a redirect leads elsewhere — the ops team sent the page to H5
    /// tonight — the redirect wins and `content` is dropped.
    ///
    /// ```swift
    /// let editor = VideoEditor(draft: draft)            // built with what only the app has
    /// await router.open("myapp://video/edit/\(draft.id)", content: editor)
    /// ```
    /// - Parameters:
    ///   - url: The URL of the page.
    ///   - content: The page: a view controller in an iOS app.
    ///   - params: Extra parameters, as for `open`.
    ///   - exts: Non-business options.
    ///   - style: How to show it; by default the route's `meta.presentation`, else `push`.
    ///   - source: Who asks.
    ///   - onResult: Gets the result exactly once, as for `open`.
    /// - Returns: What the open did.
    @discardableResult
    public func open(
        _ url: String, content: Any, params: [String: any Sendable] = [:], exts: [String: RuleValue] = [:],
        style: PresentationStyle? = nil, source: RequestSource = .internal,
        onResult: (@MainActor (RouteResult) -> Void)? = nil
    ) async -> Opening {
        await start(
            url, content: PageContent(content), params: params, exts: exts, style: style, source: source,
            onResult: onResult)
    }
}
