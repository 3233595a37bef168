/// Why a channel pointer was refused.
///
/// ``code`` says what kind of refusal it is (`error.code == .badSignature`); ``message``
/// says what was wrong and where, as `junction bundle publish` and a device's status print it.
public struct PointerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of refusal this is.
    public let code: Code
    /// What was wrong and where (a field, a key id, a size).
    public let message: String

    /// Creates an error.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
