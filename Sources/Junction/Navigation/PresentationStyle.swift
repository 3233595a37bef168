/// How `open` shows a page.
public enum PresentationStyle: String, Sendable, Hashable, CaseIterable {
    /// Push it onto the topmost navigation stack (a modal's, else the selected tab's).
    case push
    /// Present it modally, over everything, as the first page of a new navigation stack.
    case present
    /// Put it in the place of the top page, which is removed (its opener gets its result).
    case replace
    /// Make it the only page of the selected tab; modals are dismissed and every page
    /// above it removed.
    case root
}
