import JunctionCore

/// What a decision the ``Router`` asks for adds to the synchronous pipeline: its async
/// interceptors, which run as the last stage for a route that would open, and what the
/// router knows of the open — the gates it passed, the undefined-route handler.
///
/// The decision awaits them with no Lua engine held: the pipeline runs in segments, each
/// with an engine lent for it alone, and stops where a route would open or nothing takes
/// the URL. Their verdicts are read as a rule's, their redirects counted with the rules'.
struct AsyncStage: Sendable {
    /// The router's async interceptors, highest priority first (a snapshot).
    var interceptors: [RegisteredAsyncInterceptor] = []
    /// The gates this request passed and resumed after: gating on one again is a loop.
    var passedGates: [String] = []
    /// Asked once, for a URL nothing takes, for a URL to open instead (a redirect of the
    /// same decision); `nil` leaves it unmatched.
    var undefinedRoute: (@Sendable (Decision) async -> String?)?

    /// Whether it adds nothing, so the synchronous ``Decider/decide(_:context:)`` decides alike.
    var isEmpty: Bool { interceptors.isEmpty && passedGates.isEmpty && undefinedRoute == nil }
}
