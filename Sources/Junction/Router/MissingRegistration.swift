import JunctionCore

/// Something the policy in force can lead to that the router has nothing registered for:
/// a route target with no page factory or task, or a dispatched scheme with no dispatcher.
/// Found by ``Router/verifyRegistrations()`` at launch, rather than when a user taps.
public struct MissingRegistration: Sendable, Hashable, CustomStringConvertible {
    /// What is missing.
    public enum Kind: String, Sendable, Hashable {
        /// A route's `target:` with no page factory or task.
        case target
        /// A scheme of `dispatched_schemes` with no dispatcher.
        case scheme
    }

    /// What is missing.
    public let kind: Kind
    /// The target or the scheme.
    public let name: String
    /// The routes that lead to the target, in table order (none for a scheme).
    public let routes: [String]
    /// The registered name nearest to ``name``, when one is near: most likely a typo.
    public let nearest: String?

    /// `route "product" leads to target "product", which has no page factory or task; did
    /// you mean "ProductPage"?`
    public var description: String {
        let suggestion = nearest.map { "; did you mean \(MessageText.quoted($0))?" } ?? ""
        switch kind {
        case .target:
            let shown = routes.prefix(3).map(MessageText.quoted).joined(separator: ", ")
            let more = routes.count > 3 ? " and \(routes.count - 3) more" : ""
            return "route\(routes.count == 1 ? "" : "s") \(shown)\(more) lead\(routes.count == 1 ? "s" : "") to "
                + "target \(MessageText.quoted(name)), which has no page factory or task registered\(suggestion)"
        case .scheme:
            return "\(MessageText.quoted(name)) URLs are handed to a dispatcher (dispatched_schemes), and none is "
                + "registered for the scheme\(suggestion)"
        }
    }
}
