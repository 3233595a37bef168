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
///
/// A rule that fails — an error, a budget exceeded, a value that is not a verdict — fails
/// every test that does not say it expects that failure (``Expectation/failures``).
public struct RuleTestCase: Sendable, Hashable {
    /// The most rules one `fails:` may list: each is compared with every failure of the
    /// decision, so the list is bounded before it costs.
    package static let maximumFailingRules = 100

    /// What the decision must be; every field given must hold, and no rule may fail
    /// unless ``failures`` says which.
    public struct Expectation: Sendable, Hashable {
        /// Which rule failures a test expects (`fails:`).
        public enum Failures: Sendable, Hashable {
            /// No rule may fail, whatever its `on_error`: the default, so that a broken rule
            /// cannot pass a test, not even one whose failure the decision carried on past.
            case never
            /// At least one rule must fail, any (`fails: true`).
            case any
            /// Each item must designate a rule that failed — its name, its `file:line`, or
            /// part of its error message — and each rule that failed must be designated by
            /// one (`fails: login` or `fails: [push-audit, login]`).
            case matching([String])
        }

        /// What happens after a gate (`then:`): the context the app has when the gate's
        /// page finishes (`context:` keys replace the test's, `null` removes one), and what
        /// the request, decided again under it, must be — as the router resumes it.
        public struct Resumption: Sendable, Hashable {
            /// The context keys that change after the gate: a table; `nil` values remove keys.
            public var context: RuleValue
            // One element: a struct cannot hold its own type but through storage.
            private var stored: [Expectation]

            /// What the resumed decision must be.
            public var expectation: Expectation {
                get { stored[0] }
                set { stored[0] = newValue }
            }

            /// A resumption.
            /// - Parameters:
            ///   - context: The context keys that change after the gate.
            ///   - expectation: What the resumed decision must be.
            package init(context: RuleValue, expectation: Expectation) {
                self.context = context
                self.stored = [expectation]
            }

            /// The test's context with these keys replaced, `nil` ones removed.
            package func context(after context: RuleValue) -> RuleValue {
                guard case .table(var fields) = context else { return self.context }
                if case .table(let changes) = self.context {
                    for (key, value) in changes {
                        if value == .nil { fields[key] = nil } else { fields[key] = value }
                    }
                }
                return .table(fields)
            }
        }

        /// How many gates one test may follow (`then:` within `then:`): as many as may wait
        /// behind one another.
        package static let maximumResumptions = 3

        /// The route the URL must reach.
        public var route: String?
        /// Parameters the decision must carry (a subset).
        public var params: [String: RuleValue]?
        /// The URL the redirects must end at.
        public var redirect: String?
        /// Whether the URL must not change on the way (`redirect: none`).
        public var noRedirect: Bool = false
        /// Whether a rule's `reject` or the access check must refuse the request; a rule
        /// failure never satisfies it.
        public var reject: Bool = false
        /// The reason the request must be refused with (`reason:`, or `reject: text`).
        public var reason: String?
        /// The code the request must be refused with (`code: 451`).
        public var code: Int?
        /// What must refuse the request (`cause: redirect_loop`).
        public var cause: Rejection.Cause?
        /// The URL a gate must open first.
        public var gate: String?
        /// The value an action route must answer with.
        public var respond: RuleValue?
        /// Whether no route may match (and no fallback redirect).
        public var unmatched: Bool = false
        /// The scheme whose dispatcher must get the URL (`https` for the web view).
        public var handOver: String?
        /// The rules that must fail; none by default.
        public var failures: Failures = .never
        /// What the request decides after the gate it expects (`then:`); only with ``gate``.
        public var then: Resumption?

        /// Whether the decision must be a rejection: `reject:`, `code:`, `reason:` or
        /// `cause:` is given.
        public var expectsRejection: Bool { reject || code != nil || reason != nil || cause != nil }

        /// Creates an expectation that asks nothing but that no rule fails; set the fields
        /// to check.
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

    /// A test of every part; loaders (YAML in JunctionAuthoring, canonical JSON here) make them.
    package init(
        name: String, open: String, source: String, context: RuleValue, params: RuleValue, expectation: Expectation,
        location: SourceLocation
    ) {
        self.name = name
        self.open = open
        self.source = source
        self.context = context
        self.params = params
        self.expectation = expectation
        self.location = location
    }
}
