/// A URL handed to the dispatcher of its scheme (`https` to the web view, `flutter` to
/// the Flutter engine, `wxmp` to a mini-program runtime).
public struct HandOver: Sendable {
    /// What a dispatcher did with it.
    public enum Outcome {
        /// It made a page, which the router puts on its stack like any other: it can be
        /// gone back from, and its opener gets its result when it is removed.
        case page(Any)
        /// It handled the URL outside the stack (another app, a system sheet); the
        /// opener gets `ok` with the value at once.
        case handled((any Sendable)? = nil)
        /// It opened a page on another stack — a Flutter route, an H5 container, a
        /// mini-program — that returns a result later, like a native page: the opener gets
        /// it, exactly once, when the dispatcher's side calls
        /// `router.finish(handOver.id, with: result)`, or `cancelled` from
        /// ``Router/cancelPageElsewhere(_:)`` (at most ``Router/maximumPagesElsewhere``
        /// wait at once; beyond that the oldest is cancelled).
        case openedElsewhere
    }

    /// The scheme, lower-cased.
    public let scheme: String
    /// The URL, after redirects.
    public let url: String
    /// The parameters carried beside the URL (the caller's, a redirect's, rewrites).
    public let params: RouteParameters
    /// The caller's non-business options.
    public let exts: [String: RuleValue]
    /// Who asked.
    public let source: RequestSource
    /// How a page it makes will be shown.
    public let style: PresentationStyle
    /// The decision, with its trace.
    public let decision: Decision
    /// The identity of the page it opens: the stack's page for `.page`, the page on the
    /// other stack for `.openedElsewhere` — keep it to finish that page.
    public let id: PageID
}
