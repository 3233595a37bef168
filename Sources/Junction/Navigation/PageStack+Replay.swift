extension PageStack {
    /// Changes this stack as `transition` changes the screen: the router keeps one such
    /// stack, `screen`, replayed from the transitions its presenter completed, so it knows
    /// what is on screen while the model runs ahead of an animation.
    mutating func replay(_ transition: Transition) {
        switch transition {
        case .push(let page):
            if modals.isEmpty { tabs[selectedTab].append(page) } else { modals[modals.count - 1].append(page) }
        case .present(let page):
            modals.append([page])
        case .pop(let page, _):
            if modals.isEmpty {
                tabs[selectedTab] = Array(tabs[selectedTab].prefix { $0 !== page }) + [page]
            } else {
                modals[modals.count - 1] = Array(modals[modals.count - 1].prefix { $0 !== page }) + [page]
            }
        case .dismiss(let modal, _):
            if let index = modals.firstIndex(where: { $0.first === modal }) { modals.removeSubrange(index...) }
        case .replace(let old, let new):
            if let index = modals.lastIndex(where: { $0.contains { $0 === old } }) {
                modals[index] = modals[index].map { $0 === old ? new : $0 }
            } else {
                tabs[selectedTab] = tabs[selectedTab].map { $0 === old ? new : $0 }
            }
        case .setRoot(let page, let tab, _):
            tabs[tab] = [page]
            modals = []
        case .removeRoot:
            tabs[selectedTab] = []
        case .setTabs(let roots, _):
            tabs = roots.isEmpty ? [[]] : roots.map { [$0] }
            selectedTab = 0
            modals = []
        case .selectTab(let index, _, _):
            if tabs.indices.contains(index) {
                modals = []
                selectedTab = index
            }
        case .renew:
            break
        }
    }
}
