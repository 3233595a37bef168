public import JunctionCore
import JunctionLua

/// A promise the app registers in Swift and no bundle can take away: this URL, opened
/// from this source with these parameters and this context, has this outcome. Every
/// update is refused unless each invariant holds under it.
///
/// ```swift
/// AppInvariant("home always opens", open: "myapp://home", expect: .opens(route: "home"))
/// AppInvariant(open: "myapp://wallet", source: .push, expect: .gated(to: "myapp://login"))
/// ```
///
/// It is checked as a rule test is (the same expectations, the same messages), and a
/// rule that fails while deciding it breaks it, whatever its `on_error`.
public struct AppInvariant: Sendable, Hashable {
    /// What the decision must be.
    public enum Outcome: Sendable, Hashable {
        /// The URL opens the route of this name, with at least these parameters.
        case opens(route: String, params: [String: RuleValue] = [:])
        /// A rule or the access check refuses it (not a failing rule).
        case rejected
        /// A gate opens this URL first.
        case gated(to: String)
        /// The redirects end at this URL (whatever it then opens).
        case redirected(to: String)
        /// The dispatcher of this scheme takes it.
        case handedOver(scheme: String)
        /// No route takes it, and no fallback.
        case unmatched
    }

    /// A name for messages; the URL when none is given.
    public var name: String
    /// The URL opened.
    public var url: String
    /// Who opens it.
    public var source: RequestSource
    /// Extra parameters of the request.
    public var params: [String: RuleValue]
    /// The app state the rules read.
    public var context: [String: RuleValue]
    /// What the decision must be.
    public var expected: Outcome

    /// An invariant.
    /// - Parameters:
    ///   - name: A name for messages; the URL by default.
    ///   - url: The URL opened.
    ///   - source: Who opens it; `internal` by default.
    ///   - params: Extra parameters; none by default.
    ///   - context: The context rules read; empty by default.
    ///   - expected: What the decision must be.
    public init(
        _ name: String? = nil, open url: String, source: RequestSource = .internal,
        params: [String: RuleValue] = [:], context: [String: RuleValue] = [:], expect expected: Outcome
    ) {
        self.name = name ?? url
        self.url = url
        self.source = source
        self.params = params
        self.context = context
        self.expected = expected
    }

    /// The invariant as a rule test, so the decider's one checker judges it.
    /// - Parameter index: Its place among the app's invariants, for its location.
    func testCase(index: Int) -> RuleTestCase {
        var expectation = RuleTestCase.Expectation()
        switch expected {
        case .opens(let route, let params):
            expectation.route = route
            if !params.isEmpty { expectation.params = params }
        case .rejected: expectation.reject = true
        case .gated(let url): expectation.gate = url
        case .redirected(let url): expectation.redirect = url
        case .handedOver(let scheme): expectation.handOver = scheme.lowercased()
        case .unmatched: expectation.unmatched = true
        }
        return RuleTestCase(
            name: name, open: url, source: source.rawValue, context: .table(context), params: .table(params),
            expectation: expectation, location: SourceLocation(file: "app invariant", line: index + 1, column: 1))
    }
}
