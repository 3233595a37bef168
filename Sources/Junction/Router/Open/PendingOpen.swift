/// One `open` on its way through the router: what the caller asked and where its
/// result goes.
@MainActor
struct PendingOpen {
    var request: RouteRequest
    var objects: [String: any Sendable]
    var style: PresentationStyle?
    var onResult: (@MainActor (RouteResult) -> Void)?
    /// The gate URLs this request has already passed and resumed after: gating on one
    /// of them again is a loop.
    var passedGates: [String] = []
    /// A page the app made itself, shown in place of the factory's when the decision opens
    /// the route the URL matched without a redirect.
    var content: PageContent?
    /// For a gate's own request: the gated request, which its page will hold.
    var gate: GateResume?
    /// For a request resumed after a gate: the gate's page, which the page it opens
    /// replaces in one transition when it is still on top.
    var replacing: Page?

    /// Gives the opener its result; the router calls this exactly once per request.
    func deliver(_ result: RouteResult) {
        onResult?(result)
    }
}
