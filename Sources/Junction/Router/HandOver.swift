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
}
