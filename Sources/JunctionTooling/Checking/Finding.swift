package import JunctionCore
import Junction

/// One static finding about a rule bundle (``BundleChecker``): how bad it is, a stable
/// code to filter on, what is wrong and what to do, and where.
package struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// `error`: the bundle misbehaves (a redirect loop); `warning`: it probably does not
    /// do what was meant.
    package var severity: Diagnostic.Severity
    /// What kind of finding it is.
    package var code: Code
    /// What is wrong and what to do.
    package var message: String
    /// The declaration concerned: a route in the route table, a declaration in a Lua file.
    package var location: SourceLocation?
    /// What the finding is about, as a manifest's `allow:` names it (`at:`): a declared
    /// redirect's `from`, an interceptor's name, a group's name; `nil` for findings that
    /// cannot be accepted (``FindingAllowance``).
    package var subject: String?

    /// Creates a finding.
    /// - Parameters:
    ///   - severity: How bad it is.
    ///   - code: What kind of finding it is.
    ///   - message: What is wrong and what to do.
    ///   - location: Where.
    ///   - subject: What it is about, for a finding an allowance can accept.
    package init(
        _ severity: Diagnostic.Severity, _ code: Code, _ message: String, at location: SourceLocation? = nil,
        subject: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
        self.subject = subject
    }

    /// The tail of the message of a finding an allowance can accept: how to accept it.
    static func acceptance(_ code: Code, _ subject: String) -> String {
        "; if this is on purpose, accept it in manifest.yaml — allow: [{ code: \(code), at: \(MessageText.quoted(subject)), "
            + "reason: … }]"
    }

    /// A problem that keeps the bundle from loading, as a finding with code
    /// ``Code/loadError``.
    /// - Parameter diagnostic: One of a `BundleError`'s diagnostics.
    package init(loadFailure diagnostic: Diagnostic) {
        self.init(diagnostic.severity, .loadError, diagnostic.message, at: diagnostic.location)
    }

    /// `FILE:LINE:COL: warning: message [code]`, or `bundle: …` without a location.
    package var description: String {
        "\(location?.description ?? "bundle"): \(severity.rawValue): \(message) [\(code)]"
    }
}
