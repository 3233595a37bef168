/// An error of one of Junction's kinds (`ArtifactError`, `PointerError`, `PublishError`):
/// a ``code`` that says what kind of refusal it is — compare it with the static values of
/// ``Code`` (`error.code == .badSignature`), which may grow without breaking a `switch` —
/// and a ``message`` that says what was wrong and where. `Domain` tells the kinds apart.
public struct CodedError<Domain>: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of this error.
    public typealias Code = ErrorCode<Domain>

    /// What kind of refusal this is.
    public let code: Code
    /// What was wrong and where (a byte offset, a member's path, a field, a seq).
    public let message: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: Its kind.
    ///   - message: What was wrong and where.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`, as the CLI and a device's status print it.
    public var description: String { "\(code): \(message)" }
}
