/// What one `open` did. The opener's `onResult` gets the matching ``RouteResult``:
/// at once for everything but a page, which reports when it is removed.
@MainActor
public indirect enum Opening {
    /// A page was put on the stack.
    case opened(Page)
    /// A page of the route, already on the stack, was reused and is on top (a route
    /// launched `singleTop` or `singleTask`); the opener gets its result with its opener's.
    case reused(Page)
    /// The URL went to its scheme's dispatcher, which may have made a page.
    case handedOver(scheme: String, page: Page?)
    /// A route to a ``NavigationTarget`` moved around the stack: a tab selected, pages gone
    /// back from; the page now on top of what it reached (`nil` when nothing is left).
    case navigated(to: Page?)
    /// A task ran, or a rule answered (`respond`), with this value.
    case answered((any Sendable)?)
    /// A rule asked to open `url` first (a login page); the request resumes when that
    /// page finishes with `ok`, and its opener gets `cancelled` otherwise.
    case gated(url: String, by: Opening)
    /// Nothing opened: rejected by a rule or the access check, no route, no target, a
    /// bad parameter, a target that threw.
    case failed(RouterError)

    /// The page the opening put on the stack, if any (a gate's page for `gated`).
    public var page: Page? {
        switch self {
        case .opened(let page), .reused(let page): return page
        case .handedOver(_, let page): return page
        case .gated(_, let opening): return opening.page
        case .navigated(let page): return page
        case .answered, .failed: return nil
        }
    }

    /// The error, for `failed`.
    public var error: RouterError? {
        if case .failed(let error) = self { return error }
        return nil
    }

    /// `opened moments #3`, `failed: …`.
    public var summary: String {
        switch self {
        case .opened(let page): return "opened \(page.name) \(page.id)"
        case .reused(let page): return "reused \(page.name) \(page.id)"
        case .handedOver(let scheme, let page):
            return "handed over to \(scheme)" + (page.map { " as \($0.name) \($0.id)" } ?? "")
        case .navigated(let page): return "navigated to " + (page.map { "\($0.name) \($0.id)" } ?? "nothing")
        case .answered(let value): return "answered" + (value.map { " " + RouteResult.describe($0) } ?? "")
        case .gated(let url, let opening): return "gated by \(url): \(opening.summary)"
        case .failed(let error): return "failed: \(error.code): \(error.message)"
        }
    }
}
