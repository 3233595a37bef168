/// What a page factory receives: the route reached, its typed parameters and the
/// decision behind it.
public struct PageRequest: Sendable {
    /// The identity the page will have; keep it to finish the page later
    /// (`router.finish(id, with: .ok(value))`).
    public let id: PageID
    /// The route reached, after redirects and rules.
    public let route: Route
    /// The URL, after redirects.
    public let url: String
    /// The parameters, typed by the route's declarations.
    public let params: RouteParameters
    /// The caller's non-business options (`animated`, …).
    public let exts: [String: RuleValue]
    /// Who asked.
    public let source: RequestSource
    /// How the page will be shown.
    public let style: PresentationStyle
    /// The decision, with its trace.
    public let decision: Decision
}
