/// Why an artifact or a key file was refused.
///
/// ``code`` says what kind of refusal it is; compare it with the static values of
/// ``Code`` (`error.code == .badSignature`), which may grow without breaking a `switch`.
/// ``description`` is `code: message`, the message saying what was wrong and where.
public struct ArtifactError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of refusal this is.
    public let code: Code

    /// What was wrong and where (a byte offset, a member's path, a file).
    public let message: String

    /// Creates an error.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`, as `junction bundle verify` prints it.
    public var description: String { "\(code): \(message)" }
}
