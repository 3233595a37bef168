public import Junction
public import Observation

/// The router's page stack as observable state for SwiftUI: tabs, each a navigation stack,
/// and sheets (modals), each a navigation stack of its own — a ``Presenter`` that SwiftUI
/// views bind to.
///
/// ```swift
/// @State var navigation = NavigationModel()
/// // router = Router(policy: policy, presenter: navigation); navigation.router = router
/// NavigationStack(path: $navigation.path) {
///     PageView(id: navigation.tabs[navigation.selectedTab].root)
///         .navigationDestination(for: PageID.self) { PageView(id: $0) }
/// }
/// ```
///
/// What the user does — a swipe back or the back button (SwiftUI sets ``path`` shorter),
/// a sheet swiped down (``sheetWasDismissed(_:)``), a tab tapped (``selectedTab``) — is
/// reported to the router, which reconciles its model and gives openers their results.
/// Set ``animate`` to let SwiftUI animate each change and say when it ended
/// (`withAnimation(.default, change, completion: done)`); the router waits for it before
/// the next.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class NavigationModel: Presenter {
    /// Each tab's stack; one without tabs.
    public private(set) var tabs: [NavigationStackState] = [NavigationStackState()]
    /// The sheets presented over the selected tab, lowest first.
    public private(set) var sheets: [NavigationStackState] = []
    private var selected = 0

    /// The router it shows; reports of what the user did go to it.
    @ObservationIgnored public weak var router: Router?
    /// Runs one change of the state and calls `done` once it is on screen. By default it
    /// changes at once; a SwiftUI app animates: `{ animated, change, done in
    /// withAnimation(animated ? .default : nil, change, completion: done) }`.
    @ObservationIgnored public var animate:
        @MainActor (_ animated: Bool, _ change: () -> Void, _ done: @escaping @MainActor () -> Void) -> Void = {
            _, change, done in
            change()
            done()
        }

    /// An empty model; set ``router`` once the router that shows through it exists.
    public init() {}

    /// Every page on screen, from the selected tab's root to the top sheet's top.
    public var visible: [PageID] { tabs[selected].pages + sheets.flatMap(\.pages) }

    /// The selected tab. Setting it (a `TabView(selection:)` the user tapped) asks the
    /// router to select that tab.
    public var selectedTab: Int {
        get { selected }
        set {
            guard newValue != selected, tabs.indices.contains(newValue) else { return }
            router?.selectTab(newValue)
        }
    }

    /// The selected tab's path, for `NavigationStack(path:)`. SwiftUI setting it shorter
    /// (a swipe back, the back button) reports the pages that left to the router.
    public var path: [PageID] {
        get { tabs[selected].path }
        set { userSetPath(newValue, current: tabs[selected]) { self.tabs[self.selected].path = $0 } }
    }

    /// The path of sheet `index`, for the `NavigationStack` inside it.
    public func sheetPath(_ index: Int) -> [PageID] { sheets.indices.contains(index) ? sheets[index].path : [] }

    /// SwiftUI set sheet `index`'s path (the user went back inside the sheet).
    public func setSheetPath(_ path: [PageID], sheet index: Int) {
        guard sheets.indices.contains(index) else { return }
        userSetPath(path, current: sheets[index]) { self.sheets[index].path = $0 }
    }

    /// The user dismissed sheet `index` (swiped it down): it and every sheet above it leave.
    public func sheetWasDismissed(_ index: Int) {
        guard sheets.indices.contains(index), let root = sheets[index].root else { return }
        sheets.removeSubrange(index...)
        router?.screenDidChange(.removed(root))
    }

    /// Whether sheet `index + 1` is presented over sheet `index` (or over the tab, for
    /// `-1`): for `.sheet(isPresented:)`.
    public func presentsSheet(above index: Int) -> Bool { sheets.count > index + 1 }

    /// Shows one change of the router's stack.
    public func apply(_ transition: Transition, animated: Bool, completion: @escaping @MainActor () -> Void) {
        animate(animated, { self.change(transition) }, completion)
    }

    private func userSetPath(
        _ newPath: [PageID], current: NavigationStackState, store: ([PageID]) -> Void
    ) {
        let old = current.path
        guard newPath != old else { return }
        guard newPath.count < old.count, Array(old.prefix(newPath.count)) == newPath else {
            // Only the router adds pages; anything but going back is not the user's to make.
            return
        }
        store(newPath)
        router?.screenDidChange(.removed(old[newPath.count]))
    }

    private func change(_ transition: Transition) {
        switch transition {
        case .push(let page):
            if sheets.isEmpty {
                if tabs[selected].root == nil {
                    tabs[selected].root = page.id
                } else {
                    tabs[selected].path.append(page.id)
                }
            } else {
                sheets[sheets.count - 1].path.append(page.id)
            }
        case .present(let page):
            sheets.append(NavigationStackState(root: page.id))
        case .pop(let page, _):
            if let index = sheets.lastIndex(where: { $0.contains(page.id) }) {
                sheets[index].path = Self.prefix(sheets[index], through: page.id)
            } else {
                tabs[selected].path = Self.prefix(tabs[selected], through: page.id)
            }
        case .dismiss(let modal, _):
            if let index = sheets.firstIndex(where: { $0.root == modal.id }) { sheets.removeSubrange(index...) }
        case .replace(let old, let new):
            func swap(_ stack: inout NavigationStackState) {
                if stack.root == old.id { stack.root = new.id }
                stack.path = stack.path.map { $0 == old.id ? new.id : $0 }
            }
            if let index = sheets.lastIndex(where: { $0.contains(old.id) }) {
                swap(&sheets[index])
            } else {
                swap(&tabs[selected])
            }
        case .setRoot(let page, let tab, _):
            if tabs.indices.contains(tab) { tabs[tab] = NavigationStackState(root: page.id) }
            sheets = []
        case .removeRoot:
            tabs[selected] = NavigationStackState()
        case .setTabs(let roots, _):
            tabs = roots.isEmpty ? [NavigationStackState()] : roots.map { NavigationStackState(root: $0.id) }
            selected = 0
            sheets = []
        case .selectTab(let index, _, _):
            if tabs.indices.contains(index) {
                sheets = []
                selected = index
            }
        case .renew:
            break
        }
    }

    /// The path of `stack` cut after `id` (empty when `id` is its root).
    private static func prefix(_ stack: NavigationStackState, through id: PageID) -> [PageID] {
        guard let index = stack.path.firstIndex(of: id) else { return [] }
        return Array(stack.path[...index])
    }
}
