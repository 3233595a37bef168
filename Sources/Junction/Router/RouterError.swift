/// Why the router could not carry out an `open` or `invoke`.
///
/// An open set of codes, as in swift-nio: match on ``code`` with `==`, never
/// exhaustively, so new codes do not break callers.
///
/// ```swift
/// do {
///     let shared = try router.invoke("myapp://action/share", params: ["text": "hi"])
/// } catch where error.code == .rejected {
///     print(error.rejection?.reason ?? "")
/// }
/// ```
public struct RouterError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: String, Sendable, Hashable {
            case unknownRoute = "unknown route"
            case rejected
            case gated
            case noTarget = "no target"
            case notATask = "not a task"
            case notAPage = "not a page"
            case missingParameter = "missing parameter"
            case wrongParameterType = "wrong parameter type"
            case wrongResultType = "wrong result type"
            case targetFailed = "target failed"
            case noDispatcher = "no dispatcher"
            case asynchronousTask = "asynchronous task"
            case cancelled
            case alreadyShown = "already shown"
            case cannotNavigate = "cannot navigate"
            case notReady = "not ready"
            case asynchronousInterceptor = "asynchronous interceptor"
        }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        /// No route, fallback, dispatcher or undefined-route handler took the URL.
        public static let unknownRoute = Code(.unknownRoute)
        /// A rule or the access check refused the request; see ``RouterError/rejection``.
        public static let rejected = Code(.rejected)
        /// A rule asked to open another page first (`gate`), which a synchronous
        /// `invoke` cannot do; the gate's URL is in ``RouterError/url``.
        public static let gated = Code(.gated)
        /// The route's target has no page factory, task or dispatcher registered.
        public static let noTarget = Code(.noTarget)
        /// `invoke` reached a route whose target is a page, not a task.
        public static let notATask = Code(.notATask)
        /// `selectTab`, `setTabs` or `page(for:)` reached something that is not a page.
        public static let notAPage = Code(.notAPage)
        /// A parameter the route declares `required` was not given.
        public static let missingParameter = Code(.missingParameter)
        /// A parameter does not have (or convert to) the type the route declares.
        public static let wrongParameterType = Code(.wrongParameterType)
        /// `invoke(_:as:)` got a value of another type.
        public static let wrongResultType = Code(.wrongResultType)
        /// A page factory, task or dispatcher threw; see ``RouterError/underlying``.
        public static let targetFailed = Code(.targetFailed)
        /// The decision hands the URL to a scheme no dispatcher is registered for.
        public static let noDispatcher = Code(.noDispatcher)
        /// A synchronous `invoke` reached a task registered as `async`.
        public static let asynchronousTask = Code(.asynchronousTask)
        /// The request was abandoned: a gate's page was left without success.
        public static let cancelled = Code(.cancelled)
        /// `show(_:)` got a page that is, or was, on the stack.
        public static let alreadyShown = Code(.alreadyShown)
        /// A route to a ``NavigationTarget`` asked for what the stack does not have: a tab
        /// that does not exist, more pages back than stand above the root, a route not on it.
        public static let cannotNavigate = Code(.cannotNavigate)
        /// An open held until `ready()` waited past its deadline, or found too many held.
        public static let notReady = Code(.notReady)
        /// A synchronous `invoke` reached a route an ``AsyncInterceptor`` covers, which it
        /// cannot wait for; the async `invoke` runs it.
        public static let asynchronousInterceptor = Code(.asynchronousInterceptor)

        /// The code's name: `unknown route`, `rejected` …
        public var description: String { kind.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A sentence that says what and where, and what to do.
    public let message: String
    /// The URL concerned.
    public let url: String
    /// The route concerned, when one matched.
    public let route: String?
    /// The rejection, for ``Code/rejected``.
    public let rejection: Rejection?
    /// What a page factory, task or dispatcher threw, for ``Code/targetFailed``.
    public let underlying: (any Error)?

    /// An error.
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - message: What and where, and what to do.
    ///   - url: The URL concerned.
    ///   - route: The route concerned.
    ///   - rejection: The rejection, for `rejected`.
    ///   - underlying: What a target threw.
    public init(
        _ code: Code, _ message: String, url: String, route: String? = nil, rejection: Rejection? = nil,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.url = url
        self.route = route
        self.rejection = rejection
        self.underlying = underlying
    }

    /// `URL: code: message`.
    public var description: String { "\(url): \(code): \(message)" }

    /// The result an opener's `onResult` gets for this error.
    var result: RouteResult {
        switch code {
        case .rejected: return RouteResult(.rejected, message: rejection?.description ?? message)
        case .unknownRoute: return RouteResult(.unmatched, message: message)
        case .cancelled: return RouteResult(.cancelled, message: message)
        default: return RouteResult(.failed, message: "\(code): \(message)")
        }
    }
}
