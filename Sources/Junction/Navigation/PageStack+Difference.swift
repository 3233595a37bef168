extension PageStack {
    /// One visible page and the navigation stack holding it: 0 for the selected tab's,
    /// 1 and up for the modals, lowest first.
    private struct Placed {
        let page: Page
        let container: Int
    }

    /// The visible pages with their stacks, from the selected tab's root to the top.
    private var placedChain: [Placed] {
        tabs[selectedTab].map { Placed(page: $0, container: 0) }
            + modals.enumerated().flatMap { index, modal in modal.map { Placed(page: $0, container: index + 1) } }
    }

    /// The transitions that take the screen, this stack, to `model`: how the router catches
    /// the screen up in one go after the user changed it while transitions were waiting
    /// (those are dropped for these). Pages both show in the same place stay; the rest
    /// leaves (a dismissal, a pop, or a replace of the top page) and arrives (pushes and
    /// presents), bottom up.
    func transitions(toReach model: PageStack) -> [Transition] {
        var screen = self
        var steps: [Transition] = []
        func record(_ transition: Transition) {
            steps.append(transition)
            screen.replay(transition)
        }
        func leaving(_ pages: [Page]) -> [Page] { pages.filter { model.page($0.id) == nil } }

        // Other tabs, or none left: the screen is reset to the model's roots.
        let sameTabs =
            screen.tabs.count == model.tabs.count && zip(screen.tabs, model.tabs).allSatisfy { $0.first === $1.first }
        if !sameTabs {
            let gone = Array(screen.all.reversed())
            if model.tabs.count > 1 {
                record(.setTabs(model.tabs.compactMap(\.first), removing: leaving(gone)))
            } else if let root = model.tabs[0].first {
                record(.setRoot(root, tab: 0, removing: leaving(gone)))
            } else if let only = screen.tabs[0].first {
                if screen.all.count > 1 { record(.setRoot(only, tab: 0, removing: Array(gone.dropLast()))) }
                record(.removeRoot(only))
                return steps
            }
        }
        if screen.selectedTab != model.selectedTab {
            if let modal = screen.modals.first?.first {
                record(.dismiss(modal: modal, removing: Array(screen.modals.joined().reversed())))
            }
            record(
                .selectTab(model.selectedTab, root: model.tabs[model.selectedTab].first, params: RouteParameters()))
        }

        let from = screen.placedChain
        let to = model.placedChain
        var kept = 0
        while kept < from.count, kept < to.count, from[kept].page === to[kept].page,
            from[kept].container == to[kept].container
        {
            kept += 1
        }
        if kept == 0, let root = to.first {
            record(.setRoot(root.page, tab: model.selectedTab, removing: leaving(Array(screen.visible.reversed()))))
            kept = 1
        } else if kept < from.count {
            let isModalRoot = { (placed: Placed, chain: [Placed], index: Int) in
                placed.container > 0 && (index == 0 || chain[index - 1].container != placed.container)
            }
            if from.count == kept + 1, to.count > kept, from[kept].container == to[kept].container,
                !isModalRoot(from[kept], from, kept), !isModalRoot(to[kept], to, kept)
            {
                record(.replace(from[kept].page, with: to[kept].page))
                kept += 1
            } else {
                if let first = (kept..<from.count).first(where: { isModalRoot(from[$0], from, $0) }) {
                    record(.dismiss(modal: from[first].page, removing: from[first...].map(\.page).reversed()))
                }
                let left = screen.visible
                if left.count > kept {
                    record(.pop(to: left[kept - 1], removing: Array(left[kept...].reversed())))
                }
            }
        }
        for index in kept..<to.count {
            let placed = to[index]
            let opensModal = placed.container > 0 && (index == 0 || to[index - 1].container != placed.container)
            record(opensModal ? .present(placed.page) : .push(placed.page))
        }
        return steps
    }
}
