/// A bundle that cannot be used, with every problem found, each at its `FILE:LINE:COLUMN`.
public struct BundleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The findings, in file order.
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
