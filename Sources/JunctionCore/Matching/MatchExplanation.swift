/// Why a URL matched the route it matched, or why it matched none: every route whose
/// pattern fits, in precedence order, and every route turned away by a parameter
/// constraint (a regex or a declared type).
public struct MatchExplanation: Sendable {
    /// The URL.
    public let uri: URI
    /// Every matching route, best first; the first is what `match` returns.
    public let candidates: [RouteMatch]
    /// Routes whose shape fit but whose parameter did not, one sentence each.
    public let rejections: [String]
    /// Whether any route exists for the URL's scheme and origin.
    public let namespaceFound: Bool

    /// The route `match` returns, if any.
    public var match: RouteMatch? { candidates.first }

    /// Why nothing matched, in one sentence; empty when something did.
    public var reason: String {
        guard candidates.isEmpty else { return "" }
        if !namespaceFound {
            let scheme = uri.scheme.map { "scheme \"\($0)\"" } ?? "URLs without a scheme"
            return "no route for \(scheme)" + (originText.map { " and host \"\($0)\"" } ?? "")
        }
        let base = "no route matches path \"\(routedPath)\""
        return rejections.isEmpty ? base : base + "; " + rejections.joined(separator: "; ")
    }

    let originText: String?
    /// The path as the table reads it: with the host in front when it is a path segment.
    let routedPath: String
}
