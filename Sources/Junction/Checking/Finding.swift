public import JunctionCore

/// One static finding about a rule bundle (``BundleChecker``): how bad it is, a stable
/// code to filter on, what is wrong and what to do, and where.
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// `error`: the bundle misbehaves (a redirect loop); `warning`: it probably does not
    /// do what was meant.
    public var severity: Diagnostic.Severity
    /// What kind of finding it is.
    public var code: Code
    /// What is wrong and what to do.
    public var message: String
    /// The declaration concerned: a route in the route table, a declaration in a Lua file.
    public var location: SourceLocation?

    /// Creates a finding.
    /// - Parameters:
    ///   - severity: How bad it is.
    ///   - code: What kind of finding it is.
    ///   - message: What is wrong and what to do.
    ///   - location: Where.
    public init(_ severity: Diagnostic.Severity, _ code: Code, _ message: String, at location: SourceLocation? = nil) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
    }

    /// A problem that keeps the bundle from loading, as a finding with code
    /// ``Code/loadError``.
    /// - Parameter diagnostic: One of a `BundleError`'s diagnostics.
    public init(loadFailure diagnostic: Diagnostic) {
        self.init(diagnostic.severity, .loadError, diagnostic.message, at: diagnostic.location)
    }

    /// `FILE:LINE:COL: warning: message [code]`, or `bundle: …` without a location.
    public var description: String {
        "\(location?.description ?? "bundle"): \(severity.rawValue): \(message) [\(code)]"
    }
}
