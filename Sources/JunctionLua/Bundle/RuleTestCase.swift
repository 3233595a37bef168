public import JunctionCore

/// One rule test from a bundle's `tests/*.yaml`: a URL to open, as whom, and what the
/// decision must be.
///
/// ```yaml
/// tests:
///   - name: guests are sent to the login page first
///     open: myapp://orders/7
///     source: push                 # internal (default), push, universal_link, h5, external …
///     context: { user: null, app_version: "5.2.0" }
///     params: { coupon: SPRING }
///     expect:
///       gate: myapp://login
/// ```
public struct RuleTestCase: Sendable, Hashable {
    /// What the decision must be; every field given must hold.
    public struct Expectation: Sendable, Hashable {
        /// The route the URL must reach.
        public var route: String?
        /// Parameters the decision must carry (a subset).
        public var params: [String: RuleValue]?
        /// The URL a redirect must end at.
        public var redirect: String?
        /// Whether the request must be rejected.
        public var reject: Bool = false
        /// The reason it must be rejected with, if given.
        public var rejectReason: String?
        /// The URL a gate must open first.
        public var gate: String?
        /// The value an action route must answer with.
        public var respond: RuleValue?
        /// Whether no route may match (and no fallback redirect).
        public var unmatched: Bool = false
        /// The scheme whose dispatcher must get the URL (`https` for the web view).
        public var handOver: String?

        /// Creates an expectation that asks nothing; set the fields to check.
        package init() {}
    }

    /// The test's name, shown on its result line.
    public var name: String
    /// The URL opened.
    public var open: String
    /// Who opens it; `internal` by default.
    public var source: String
    /// The host's context snapshot.
    public var context: RuleValue
    /// Extra parameters of the request.
    public var params: RuleValue
    /// What the decision must be.
    public var expectation: Expectation
    /// Where the test is written.
    public var location: SourceLocation
}
