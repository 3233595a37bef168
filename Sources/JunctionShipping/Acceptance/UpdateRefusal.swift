public import JunctionCore
public import Junction

/// Why a device refused an update: one ``Code`` per check of the acceptance pipeline, and
/// a message saying what was wrong and what to do. The active bundle stays whenever one
/// is thrown.
///
/// ``description`` is `code: message`:
///
/// ```
/// staleSeq: the pointer's seq 4 is lower than seq 5, the update last accepted: …
/// ```
public struct UpdateRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which check refused the update.
    public let code: Code
    /// What was wrong, where, and what to do.
    public let message: String
    /// The update refused, once its pointer's signature verified (before, nothing it says
    /// can be trusted, so there is nothing to remember).
    public let identity: UpdateIdentity?
    /// For ``Code/bundleInvalid``: every problem found, at its file and line; empty otherwise.
    public let diagnostics: [Diagnostic]

    /// A refusal.
    /// - Parameters:
    ///   - code: The check that refused it.
    ///   - message: What was wrong and what to do.
    ///   - identity: The update, when its pointer verified.
    ///   - diagnostics: The bundle's problems.
    package init(_ code: Code, _ message: String, identity: UpdateIdentity? = nil, diagnostics: [Diagnostic] = []) {
        self.code = code
        self.message = message
        self.identity = identity
        self.diagnostics = diagnostics
    }

    /// Whether the device should remember ``identity`` as failed and never try it again:
    /// when the refusal is a property of the signed update itself, which trying again
    /// cannot change. A download that does not match its pointer (length, hash) is
    /// retried — the artifact the pointer names was never seen — and so is a bundle for a
    /// newer host, which a later app release may run.
    public var isRemembered: Bool {
        guard identity != nil else { return false }
        switch code {
        case .artifactRefused, .artifactExpired, .bundleInvalid, .selfTestFailed, .invariantFailed: return true
        default: return false
        }
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

    /// The same refusal, about `identity`.
    func about(_ identity: UpdateIdentity) -> UpdateRefusal {
        UpdateRefusal(code, message, identity: identity, diagnostics: diagnostics)
    }
}
