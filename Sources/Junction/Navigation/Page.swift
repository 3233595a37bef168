/// One page on the router's stack: what its factory made, the route and parameters it
/// was opened with, and how it is shown.
///
/// A page's opener gets a ``RouteResult`` exactly once, when the page is removed —
/// popped, dismissed, removed with others by `back(to:)` or `back(count:)`, or replaced —
/// with the result set by ``Router/setResult(_:for:)`` or ``Router/finish(_:with:animated:)``,
/// else `cancelled`. Never on deinit.
@MainActor
public final class Page {
    /// Its identity.
    public nonisolated let id: PageID
    /// The route it was opened through (`moments`); for a page a dispatcher made, the
    /// scheme (`https`).
    public let name: String
    /// The URL it shows, after redirects; the latest open's when a launch reused it.
    public private(set) var url: String
    /// The parameters its factory received; the latest open's when a launch reused it
    /// (``Transition/renew(_:)``).
    public private(set) var params: RouteParameters
    /// What the page factory (or dispatcher) made: a view controller in an iOS app.
    public let content: Any
    /// How it sits on the stack.
    public internal(set) var presentation: Presentation
    /// The parameters of the last `selectTab` that showed it, for a tab's root page.
    public internal(set) var tabParams: RouteParameters?

    /// The content as the type the app made it: `page.content(as: UIViewController.self)`.
    /// - Parameter type: The type a page factory or dispatcher returned.
    /// - Returns: The content, or `nil` when it is of another type.
    public func content<Content>(as type: Content.Type) -> Content? { content as? Content }

    var pendingResult: RouteResult?
    /// For a gate's page (a login page a rule opened first): the request it holds, which
    /// takes the page's place when it finishes with `ok`.
    var gate: GateResume?
    /// For a page ``Router/page(for:params:exts:style:source:onResult:)`` made and the
    /// stack has not had yet: the request it was made for and how to show it.
    var unshown: (request: RouteRequest, style: PresentationStyle)?
    /// Who gets the result when the page leaves: its opener, and the openers of launches
    /// that reused it (`singleTop`, `singleTask`).
    private var openers: [@MainActor (RouteResult) -> Void]
    private(set) var isRemoved = false

    init(
        id: PageID, name: String, url: String, params: RouteParameters, content: Any, presentation: Presentation,
        onRemoved: (@MainActor (RouteResult) -> Void)?
    ) {
        self.id = id
        self.name = name
        self.url = url
        self.params = params
        self.content = content
        self.presentation = presentation
        openers = onRemoved.map { [$0] } ?? []
    }

    /// Takes the URL and parameters of an open that reuses the page.
    func renew(url: String, params: RouteParameters) {
        self.url = url
        self.params = params
    }

    /// Adds an opener that gets the page's result when it leaves: a launch that reused it.
    func addOpener(_ onResult: (@MainActor (RouteResult) -> Void)?) {
        if let onResult, !isRemoved { openers.append(onResult) }
    }

    /// Marks the page removed and gives its opener the result, once.
    /// - Returns: The result given, or `nil` when the page was already removed.
    @discardableResult
    func removed() -> RouteResult? {
        guard !isRemoved else { return nil }
        isRemoved = true
        let handlers = openers
        openers = []
        let result = pendingResult ?? .cancelled
        for handler in handlers { handler(result) }
        return result
    }
}
