/// One finding about a route table: what is wrong, where, and how bad.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How bad a finding is.
    public enum Severity: String, Sendable, Hashable {
        /// The table cannot be used.
        case error
        /// The table works, but probably not as meant.
        case warning
    }

    /// How bad it is.
    public var severity: Severity
    /// What is wrong and what to do.
    public var message: String
    /// Where, when known.
    public var location: SourceLocation?
    /// The route concerned, when there is one.
    public var route: String?

    /// Creates a finding.
    /// - Parameters:
    ///   - severity: How bad it is.
    ///   - message: What is wrong and what to do.
    ///   - location: Where.
    ///   - route: The route concerned.
    public init(_ severity: Severity, _ message: String, at location: SourceLocation? = nil, route: String? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
        self.route = route
    }

    /// `FILE:LINE:COL: error: message`, or `route "x": error: message` without a file.
    public var description: String {
        let place: String
        if let location {
            place = location.description
        } else if let route {
            place = "route \"\(route)\""
        } else {
            place = "route table"
        }
        return "\(place): \(severity.rawValue): \(message)"
    }
}
