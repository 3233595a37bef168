public import Junction

/// A screen as page ids, changed by transitions the way UIKit's containers change: tabs,
/// each a navigation stack, and modals over the selected tab. What a presenter that keeps
/// the contract shows; the base of test doubles that stand in for a UI.
public struct ReferenceScreen: Equatable, Sendable {
    /// Each tab's navigation stack, root first.
    public private(set) var tabs: [[PageID]] = [[]]
    /// The selected tab.
    public private(set) var selectedTab = 0
    /// The modals, lowest first, each a navigation stack.
    public private(set) var modals: [[PageID]] = []

    /// An empty screen.
    public init() {}

    /// The pages shown, from the selected tab's root to the top modal's top.
    public var visible: [PageID] { tabs[selectedTab] + modals.flatMap { $0 } }

    /// The user removes `id` and everything above it by themselves (a swipe back, a modal
    /// swiped down), as a screen does without the router; a tab's root stays.
    public mutating func userRemoves(_ id: PageID) {
        if let index = modals.firstIndex(where: { $0.contains(id) }) {
            let position = modals[index].firstIndex(of: id)!
            if position == 0 {
                modals.removeSubrange(index...)
            } else {
                modals[index].removeSubrange(position...)
                modals.removeSubrange((index + 1)...)
            }
        } else if let position = tabs[selectedTab].firstIndex(of: id), position > 0 {
            tabs[selectedTab].removeSubrange(position...)
            modals = []
        }
    }

    /// Code other than the router pushes `id` onto the topmost navigation stack (a legacy push).
    public mutating func userPushes(_ id: PageID) {
        if modals.isEmpty { tabs[selectedTab].append(id) } else { modals[modals.count - 1].append(id) }
    }

    /// Shows `transition`.
    @MainActor
    public mutating func show(_ transition: Transition) {
        switch transition {
        case .push(let page):
            if modals.isEmpty { tabs[selectedTab].append(page.id) } else { modals[modals.count - 1].append(page.id) }
        case .present(let page):
            modals.append([page.id])
        case .pop(let page, _):
            if let index = modals.lastIndex(where: { $0.contains(page.id) }) {
                modals[index] = Array(modals[index].prefix { $0 != page.id }) + [page.id]
            } else {
                tabs[selectedTab] = Array(tabs[selectedTab].prefix { $0 != page.id }) + [page.id]
            }
        case .dismiss(let modal, _):
            if let index = modals.firstIndex(where: { $0.first == modal.id }) { modals.removeSubrange(index...) }
        case .replace(let old, let new):
            if let index = modals.lastIndex(where: { $0.contains(old.id) }) {
                modals[index] = modals[index].map { $0 == old.id ? new.id : $0 }
            } else {
                tabs[selectedTab] = tabs[selectedTab].map { $0 == old.id ? new.id : $0 }
            }
        case .setRoot(let page, let tab, _):
            if tabs.indices.contains(tab) { tabs[tab] = [page.id] }
            modals = []
        case .removeRoot:
            tabs[selectedTab] = []
        case .setTabs(let roots, _):
            tabs = roots.isEmpty ? [[]] : roots.map { [$0.id] }
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
