package import JunctionCore

extension RuleTestCase {
    /// A test from its parts, for tests written in Swift rather than read from a file
    /// (an app's invariants).
    /// - Parameters:
    ///   - name: The test's name.
    ///   - url: The URL opened.
    ///   - source: Who opens it.
    ///   - context: The host's context snapshot, a table.
    ///   - params: Extra parameters, a table.
    ///   - expectation: What the decision must be.
    ///   - location: Where the test is written.
    package init(
        named name: String, opening url: String, source: String, context: RuleValue, params: RuleValue,
        expecting expectation: Expectation, at location: SourceLocation
    ) {
        self.name = name
        self.open = url
        self.source = source
        self.context = context
        self.params = params
        self.expectation = expectation
        self.location = location
    }
}
