/// Why the on-device store could not read or write something: which file, which operation,
/// and what the system or the check said.
///
/// ``code`` says what kind of failure it is; compare it with the static values of
/// ``Code`` (`error.code == .corrupt`), which may grow without breaking a `switch`.
/// ``description`` is `code: message`, the message naming the file.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public let code: Code

    /// The file or directory concerned.
    public let path: String

    /// What was wrong, with the path and what to do.
    public let message: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - path: The file or directory concerned.
    ///   - message: What was wrong; it should name `path`.
    public init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// `code: message`, as the store logs it.
    public var description: String { "\(code): \(message)" }
}
