extension Router {
    /// Tells the router what the screen changed by itself, so the model follows and nothing
    /// the user did is undone. The one entry point for a presenter's reports:
    /// - ``ScreenChange/removed(_:)``: a swipe back, the back button, a dismissal. The page
    ///   and every page the screen shows above it leave the model; each opener gets its
    ///   page's result once (``ClosedPage/Reason/removedByScreen``). Pages opened meanwhile
    ///   that the screen has not shown yet stay, and are shown where they now belong.
    /// - ``ScreenChange/added(content:name:presented:)``: a page pushed or presented by
    ///   code other than the router is adopted, so that backs and results around it stay
    ///   true.
    ///
    /// Reported while the presenter is showing a transition, the change is reconciled the
    /// moment that transition completes, before any waiting one starts.
    /// - Parameter change: What the screen did.
    /// - Returns: For `removed`, the page, when the screen shows it above a tab's root
    ///   (`nil`, and nothing changes, otherwise); for `added`, the page the router adopted —
    ///   its ``Page/id`` is what later reports name.
    @discardableResult
    public func screenDidChange(_ change: ScreenChange) -> Page? {
        switch change {
        case .removed(let id):
            // Looked up when reconciled: the page may be one the screen adopted a moment
            // ago, in a report still waiting for the running transition.
            let page = transitions.screen.page(id) ?? stack.page(id)
            let onScreen = transitions.screen.visibleIndex(of: id).map { $0 > 0 } ?? false
            transitions.whenScreenIsStill { [weak self] in self?.reconcileRemoval(of: id) }
            return onScreen ? page : nil
        case .added(let content, let name, let presented):
            let page = Page(
                id: makePageID(), name: name, url: name, params: RouteParameters(), content: content,
                presentation: presented ? .presented : .pushed, onRemoved: nil)
            transitions.whenScreenIsStill { [weak self] in self?.reconcileAddition(of: page, presented: presented) }
            return page
        }
    }

    /// Returns once the screen shows every change made so far: each transition queued
    /// before the call has completed and the results waiting on them are delivered.
    public func screenSettled() async {
        await transitions.reached()
    }

    /// Whether the screen shows the model: nothing in flight or waiting.
    public var isScreenSettled: Bool { transitions.isSettled }

    /// The page whose content is `content` (the view controller the screen shows), if it is
    /// on the stack: how a presenter finds the ``PageID`` to report.
    /// - Parameter content: What a page factory, a dispatcher or the app made.
    public func page(showing content: AnyObject) -> Page? {
        stack.all.first { ($0.content as AnyObject) === content }
    }

    private func reconcileRemoval(of id: PageID) {
        guard let page = transitions.screen.page(id) else { return }
        var removed: [Page] = []
        transitions.screenChanged { removed = $0.removeFromScreen(page) }
        guard !removed.isEmpty else { return }
        stack.remove(removed)
        for page in removed { close(page, .removedByScreen) }
        catchUpScreenIfNeeded()
    }

    private func reconcileAddition(of page: Page, presented: Bool) {
        let below = transitions.screen.top
        transitions.screenChanged { $0.replay(presented ? .present(page) : .push(page)) }
        stack.insert(page, above: below, presented: presented)
        catchUpScreenIfNeeded()
    }

    /// After the user's change: transitions still waiting were computed for a screen that
    /// no longer exists, so they give way to the way from what the screen shows to the model.
    private func catchUpScreenIfNeeded() {
        let screen = transitions.screen
        let same =
            screen.selectedTab == stack.selectedTab && screen.tabs.count == stack.tabs.count
            && screen.visible.map(\.id) == stack.visible.map(\.id) && screen.modals.count == stack.modals.count
        if transitions.hasWaitingTransitions || !same {
            transitions.catchUp(to: stack, animated: true)
        }
    }
}

extension Router {
    /// How an open ended, awaited to the end of what it started: for a gated open, the
    /// request it held — the resumed page once it is on screen (`.opened`), or
    /// `.failed(.cancelled)` when the gate was left without success or does not resume;
    /// any other opening as it is.
    ///
    /// ```swift
    /// let opening = await router.outcome(of: router.open("myapp://coupons"))
    /// // the coupons page, after the user logged in; or cancelled
    /// ```
    /// - Parameter opening: What `open` returned.
    public func outcome(of opening: Opening) async -> Opening {
        var opening = opening
        while case .gated(_, let gate) = opening {
            guard let hold = gate.page?.gate else { return gate }
            opening = await hold.ending()
        }
        return opening
    }
}
