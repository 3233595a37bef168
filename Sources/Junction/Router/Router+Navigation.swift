import JunctionCore

extension Router {
    /// The page on top.
    public var top: Page? { stack.top }

    /// The pages from the selected tab's root to the top, modals included.
    public var pages: [Page] { stack.visible }

    /// The root page of each tab.
    public var tabs: [Page] { stack.tabs.compactMap(\.first) }

    /// The selected tab's index.
    public var selectedTab: Int { stack.selectedTab }

    /// Whether a page of route `name` is anywhere on the stack, in any tab or modal.
    /// - Parameter name: A route name.
    public func contains(_ name: String) -> Bool { stack.all.contains { $0.name == name } }

    /// The page with `id`, if it is on the stack.
    /// - Parameter id: Its identity.
    public func page(_ id: PageID) -> Page? { stack.page(id) }

    // MARK: - Going back

    /// Removes the top page (popped, or dismissed when it is a modal's root).
    /// - Parameter animated: Whether to animate.
    /// - Returns: The page reached, or `nil` when the top page is a root (nothing changes then).
    @discardableResult
    public func back(animated: Bool = true) -> Page? {
        back(count: 1, animated: animated)
    }

    /// Removes the top `count` pages at once; each opener gets its page's result, top first.
    /// - Parameters:
    ///   - count: How many pages, 1 or more.
    ///   - animated: Whether to animate.
    /// - Returns: The page reached, or `nil` when fewer pages than `count` stand above
    ///   the tab's root (nothing changes then).
    @discardableResult
    public func back(count: Int, animated: Bool = true) -> Page? {
        precondition(count >= 1, "back(count:) takes 1 or more, got \(count)")
        return unwind(to: stack.visible.count - 1 - count, animated: animated)
    }

    /// Goes back to the topmost page of route `name`, removing every page above it.
    /// - Parameters:
    ///   - name: A route name.
    ///   - animated: Whether to animate.
    /// - Returns: The page reached, or `nil` when no visible page has that route.
    @discardableResult
    public func back(to name: String, animated: Bool = true) -> Page? {
        guard let index = stack.topmostVisibleIndex(named: name) else { return nil }
        return unwind(to: index, animated: animated)
    }

    /// Goes back to the page before the topmost page of route `name`, removing it and every
    /// page above it: after publishing a video, back to where the capture started.
    /// - Parameters:
    ///   - name: A route name.
    ///   - animated: Whether to animate.
    /// - Returns: The page reached, or `nil` when no visible page has that route or it is a
    ///   tab's root.
    @discardableResult
    public func back(before name: String, animated: Bool = true) -> Page? {
        guard let index = stack.topmostVisibleIndex(named: name) else { return nil }
        return unwind(to: index - 1, animated: animated)
    }

    // MARK: - Results

    /// Sets the result a page's opener gets when the page is removed, replacing any
    /// earlier one (a picker sets it on each choice; the user then goes back).
    /// - Parameters:
    ///   - result: The result.
    ///   - id: The page.
    /// - Returns: Whether the page is on the stack.
    @discardableResult
    public func setResult(_ result: RouteResult, for id: PageID) -> Bool {
        guard let page = stack.page(id) else { return false }
        page.pendingResult = result
        return true
    }

    /// Sets a page's result and removes it, with every page above it. For a page a
    /// dispatcher opened on another stack (``HandOver/Outcome/openedElsewhere``), gives its
    /// opener `result`.
    /// - Parameters:
    ///   - id: The page.
    ///   - result: Its result.
    ///   - animated: Whether to animate.
    /// - Returns: Whether the page was removed; `false` when it is not visible or is a
    ///   tab's root (its result is kept for when it is removed). The only page of an app
    ///   without tabs can be finished (a gate's page opened at launch): the stack is then empty.
    @discardableResult
    public func finish(_ id: PageID, with result: RouteResult, animated: Bool = true) -> Bool {
        if deliverElsewhere(id, result) { return true }
        guard let page = stack.page(id) else { return false }
        page.pendingResult = result
        if result.code == .ok, let hold = page.gate, hold.resumes, !hold.isSettled, stack.top === page {
            resumeInPlace(of: page, hold, animated: animated)
            return true
        }
        guard let index = stack.visibleIndex(of: id) else { return false }
        if index == 0, let change = stack.removeOnlyPage() {
            apply(change, animated: animated)
            return true
        }
        return unwind(to: index - 1, animated: animated) != nil
    }

    /// Tells the router that the screen already removed a page by itself — the system back
    /// button, a swipe back, an interactive dismiss: ``screenDidChange(_:)`` with
    /// ``ScreenChange/removed(_:)``.
    /// - Parameter id: The page the screen removed.
    /// - Returns: Whether it is a page the screen shows above a tab's root.
    @discardableResult
    public func pageWasRemoved(_ id: PageID) -> Bool {
        screenDidChange(.removed(id)) != nil
    }

    // MARK: - Tabs

    /// Installs tabs: each URL is opened through the pipeline (as `internal`) and must
    /// reach a page, which becomes a tab's root. Every page on the stack before is removed.
    ///
    /// ``decisionObserver`` sees each tab's decision. ``willOpen`` and ``didOpen`` are not
    /// called: the tabs are installed all at once or not at all, so there is no single
    /// `open` to report, and a page that a later tab's failure keeps off the screen would
    /// have been reported as opened.
    /// - Parameter urls: One URL per tab.
    /// - Returns: The root pages.
    /// - Throws: `RouterError` when a URL does not reach a page; nothing changes then.
    @discardableResult
    public func setTabs(_ urls: [String]) async throws(RouterError) -> [Page] {
        var roots: [Page] = []
        for url in urls {
            let decision = await decide(RouteRequest(url))
            decisionObserver?(decision)
            guard case .open = decision.outcome, let route = decision.match?.route else {
                throw RouterError(.notAPage, "a tab must open a page; this URL decides \(decision.summary)", url: url)
            }
            guard let factory = pageFactories[route.target] else {
                throw RouterError(
                    .notAPage, "route \"\(route.name)\" leads to \"\(route.target)\", which has no page factory",
                    url: url,
                    route: route.name)
            }
            let params = try ParameterBinding.bind(decision, objects: [:])
            roots.append(
                try makePage(
                    factory, route: route, decision: decision, params: params, exts: [:], source: .internal,
                    style: .root,
                    onRemoved: nil))
        }
        apply(stack.setTabs(roots), animated: false)
        return roots
    }

    /// Shows tab `index`, dismissing any modal; its root page receives `params`
    /// (``Page/tabParams``, and the presenter's ``Transition/selectTab(_:root:params:)``).
    /// - Parameters:
    ///   - index: The tab.
    ///   - params: Parameters for the tab's root page.
    ///   - animated: Whether to animate.
    /// - Returns: The tab's root page; `nil` when there is no such tab (nothing changes then).
    @discardableResult
    public func selectTab(_ index: Int, params: [String: any Sendable] = [:], animated: Bool = true) -> Page? {
        let (values, objects) = SendableBridge.split(params)
        guard let change = stack.selectTab(index, params: RouteParameters(values: values, objects: objects)) else {
            return nil
        }
        apply(change, animated: animated)
        return stack.tabs[index].first
    }

    // MARK: - Internals

    func show(_ page: Page, style: PresentationStyle, exts: [String: RuleValue]) {
        let change: PageStack.Change
        switch style {
        case .push: change = stack.push(page)
        case .present: change = stack.present(page)
        case .replace: change = stack.replaceTop(with: page)
        case .root: change = stack.setRoot(page)
        }
        apply(change, animated: Self.isAnimated(exts))
    }

    /// `exts["animated"]`, `true` unless it is `false`.
    static func isAnimated(_ exts: [String: RuleValue]) -> Bool {
        if case .bool(let flag)? = exts["animated"] { return flag }
        return true
    }

    /// A gate's page on top finished with `ok`: the request it held opens in its place, in
    /// one transition (`replace`). When that request opens no page there (a rejection, a
    /// task, another gate), the gate's page leaves as ``finish(_:with:animated:)`` has it.
    private func resumeInPlace(of gatePage: Page, _ hold: GateResume, animated: Bool) {
        hold.isSettled = true
        var resumed = hold.gated
        resumed.replacing = gatePage
        track { [weak self] in
            guard let self else { return }
            let opening = await self.perform(resumed)
            if let index = self.stack.visibleIndex(of: gatePage.id) {
                if index == 0, let change = self.stack.removeOnlyPage() {
                    self.apply(change, animated: animated)
                } else if index > 0 {
                    _ = self.unwind(to: index - 1, animated: animated)
                }
                await self.transitions.reached()
            }
            hold.end(opening)
        }
    }

    private func unwind(to index: Int, animated: Bool) -> Page? {
        guard index >= 0, let change = stack.unwind(toVisible: index) else { return nil }
        apply(change, animated: animated)
        return stack.top
    }

    /// Queues the change's transitions for the presenter, then gives each removed page's
    /// opener its result, top first, once they are on screen: openers see a consistent
    /// stack when their callbacks run.
    func apply(_ change: PageStack.Change, animated: Bool) {
        var reasons: [PageID: ClosedPage.Reason] = [:]
        for transition in change.transitions {
            for (page, reason) in transition.closings { reasons[page.id] = reason }
        }
        let removed = change.removed
        transitions.enqueue(change.transitions, animated: animated) { [weak self] in
            for page in removed { self?.close(page, reasons[page.id] ?? .popped) }
        }
    }

    /// Gives a page's openers its result, once, and tells ``didClose``.
    func close(_ page: Page, _ reason: ClosedPage.Reason) {
        guard let result = page.removed() else { return }
        didClose?(ClosedPage(page: page, result: result, reason: reason))
    }
}
