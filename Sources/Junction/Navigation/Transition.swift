/// One change of the page stack, for a ``Presenter`` to show.
@MainActor
public enum Transition {
    /// Push `page` onto the topmost navigation stack.
    case push(Page)
    /// Present `page` modally over everything, as the root of a new navigation stack.
    case present(Page)
    /// Pop the topmost navigation stack back to `page`; `removing` lists the pages
    /// popped, top first.
    case pop(to: Page, removing: [Page])
    /// Dismiss the modal whose root is `modal`, with every modal above it; `removing`
    /// lists their pages, top first.
    case dismiss(modal: Page, removing: [Page])
    /// Put `new` in the place of `old` in its navigation stack.
    case replace(Page, with: Page)
    /// Make `page` the only page of tab `tab`; `removing` lists the pages that leave, top first.
    case setRoot(Page, tab: Int, removing: [Page])
    /// Remove the only page of an app without tabs, leaving nothing on screen (a gate's
    /// page opened at launch has finished).
    case removeRoot(Page)
    /// Install tabs with these root pages; `removing` lists the pages that leave.
    case setTabs([Page], removing: [Page])
    /// Show tab `index`, whose root page receives `params`.
    case selectTab(Int, root: Page?, params: RouteParameters)
    /// `page`, on top, was opened again and reused (a route launched `singleTop` or
    /// `singleTask`): its ``Page/url`` and ``Page/params`` are the new open's; show them.
    case renew(Page)

    /// The pages this transition takes off the stack, each with how it leaves.
    var closings: [(Page, ClosedPage.Reason)] {
        switch self {
        case .pop(_, let removing): return removing.map { ($0, .popped) }
        case .dismiss(_, let removing): return removing.map { ($0, .dismissed) }
        case .replace(let old, _): return [(old, .replaced)]
        case .setRoot(_, _, let removing), .setTabs(_, let removing): return removing.map { ($0, .reset) }
        case .removeRoot(let page): return [(page, .reset)]
        case .push, .present, .selectTab, .renew: return []
        }
    }
}
