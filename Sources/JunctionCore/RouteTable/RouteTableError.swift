/// A route table that cannot be used, with every problem found (not just the first).
public struct RouteTableError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The findings, in file order; at least one is an error.
    public var diagnostics: [Diagnostic]

    /// Creates an error from findings.
    /// - Parameter diagnostics: The findings.
    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// One finding a line.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
