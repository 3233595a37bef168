/// The model of the app's navigation: tabs, each a navigation stack, and modals
/// presented over the selected tab, each a navigation stack of its own.
///
/// Every operation changes the model and returns the transitions that show it and the
/// pages it removed, top first; the router hands the first to its presenter and
/// delivers the results of the second. An operation that cannot be done changes nothing.
@MainActor
struct PageStack {
    /// Each tab's navigation stack, root first. Without tabs, one.
    var tabs: [[Page]] = [[]]
    var selectedTab = 0
    /// The presented navigation stacks, lowest first.
    var modals: [[Page]] = []

    /// What a change did.
    struct Change {
        var transitions: [Transition] = []
        var removed: [Page] = []
    }

    /// The pages from the selected tab's root to the top, modals included.
    var visible: [Page] { tabs[selectedTab] + Array(modals.joined()) }
    /// The page on top.
    var top: Page? { modals.last?.last ?? tabs[selectedTab].last }
    /// Every page in every tab and modal.
    var all: [Page] { Array(tabs.joined()) + Array(modals.joined()) }

    // MARK: - Adding

    /// Pushes onto the topmost navigation stack; an empty stack gets it as its root.
    mutating func push(_ page: Page) -> Change {
        if modals.isEmpty {
            if tabs[selectedTab].isEmpty { return setRoot(page) }
            page.presentation = .pushed
            tabs[selectedTab].append(page)
        } else {
            page.presentation = .pushed
            modals[modals.count - 1].append(page)
        }
        return Change(transitions: [.push(page)])
    }

    /// Presents as the root of a new modal navigation stack; with nothing on screen yet,
    /// makes it the root instead.
    mutating func present(_ page: Page) -> Change {
        guard top != nil else { return setRoot(page) }
        page.presentation = .presented
        modals.append([page])
        return Change(transitions: [.present(page)])
    }

    /// Puts `page` in the place of the top page.
    mutating func replaceTop(with page: Page) -> Change {
        guard let old = top else { return setRoot(page) }
        page.presentation = old.presentation
        if modals.isEmpty {
            tabs[selectedTab][tabs[selectedTab].count - 1] = page
        } else {
            modals[modals.count - 1][modals[modals.count - 1].count - 1] = page
        }
        return Change(transitions: [.replace(old, with: page)], removed: [old])
    }

    /// Makes `page` the selected tab's only page, dismissing every modal.
    mutating func setRoot(_ page: Page) -> Change {
        let removed = Array((tabs[selectedTab] + Array(modals.joined())).reversed())
        page.presentation = .root
        tabs[selectedTab] = [page]
        modals = []
        return Change(transitions: [.setRoot(page, tab: selectedTab, removing: removed)], removed: removed)
    }

    /// Replaces every tab (and modal) with one tab per root page, selecting the first.
    mutating func setTabs(_ roots: [Page]) -> Change {
        let removed = Array(all.reversed())
        for root in roots { root.presentation = .root }
        tabs = roots.isEmpty ? [[]] : roots.map { [$0] }
        selectedTab = 0
        modals = []
        return Change(transitions: [.setTabs(roots, removing: removed)], removed: removed)
    }

    /// Shows tab `index`, dismissing the modals first; `nil` when there is no such tab.
    mutating func selectTab(_ index: Int, params: RouteParameters) -> Change? {
        guard tabs.indices.contains(index) else { return nil }
        var change = dismissAllModals()
        selectedTab = index
        let root = tabs[index].first
        if let root, !params.values.isEmpty || !params.objects.isEmpty { root.tabParams = params }
        change.transitions.append(.selectTab(index, root: root, params: params))
        return change
    }

    // MARK: - Going back

    /// Removes every visible page above the one at `index` in ``visible``.
    /// - Returns: `nil` when `index` is not a visible page.
    mutating func unwind(toVisible index: Int) -> Change? {
        let chain = visible
        guard chain.indices.contains(index) else { return nil }
        guard index < chain.count - 1 else { return Change() }
        var change = Change()
        let tabCount = tabs[selectedTab].count
        // Modals wholly above the target are dismissed, from the lowest of them up.
        var start = tabCount
        var firstDismissed: Int?
        for (position, modal) in modals.enumerated() {
            if start > index { firstDismissed = firstDismissed ?? position }
            start += modal.count
        }
        if let firstDismissed {
            let removed = Array(modals[firstDismissed...].joined().reversed())
            change.transitions.append(.dismiss(modal: modals[firstDismissed][0], removing: removed))
            change.removed += removed
            modals.removeSubrange(firstDismissed...)
        }
        // Then the navigation stack holding the target is popped to it.
        if modals.isEmpty {
            if index < tabCount - 1 {
                let removed = Array(tabs[selectedTab][(index + 1)...].reversed())
                tabs[selectedTab].removeSubrange((index + 1)...)
                change.transitions.append(.pop(to: tabs[selectedTab][index], removing: removed))
                change.removed += removed
            }
        } else {
            let offset = index - (tabCount + modals.dropLast().reduce(0) { $0 + $1.count })
            let last = modals.count - 1
            if offset < modals[last].count - 1 {
                let removed = Array(modals[last][(offset + 1)...].reversed())
                modals[last].removeSubrange((offset + 1)...)
                change.transitions.append(.pop(to: modals[last][offset], removing: removed))
                change.removed += removed
            }
        }
        return change
    }

    /// Removes the root page of an app without tabs when it is the only page (a gate's page
    /// opened at launch, finished); `nil` otherwise.
    mutating func removeOnlyPage() -> Change? {
        guard tabs.count == 1, modals.isEmpty, tabs[0].count == 1 else { return nil }
        let page = tabs[0][0]
        tabs[0] = []
        return Change(transitions: [.removeRoot(page)], removed: [page])
    }

    private mutating func dismissAllModals() -> Change {
        guard !modals.isEmpty else { return Change() }
        return unwind(toVisible: tabs[selectedTab].count - 1) ?? Change()
    }

    // MARK: - Reading

    /// The position in ``visible`` of the topmost page named `name`.
    func topmostVisibleIndex(named name: String) -> Int? {
        visible.lastIndex { $0.name == name }
    }

    /// The position in ``visible`` of the page with `id`.
    func visibleIndex(of id: PageID) -> Int? {
        visible.firstIndex { $0.id == id }
    }

    /// The page with `id`, anywhere.
    func page(_ id: PageID) -> Page? {
        all.first { $0.id == id }
    }
}
