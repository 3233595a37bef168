/// Why ``ChannelPublisher`` refused to publish.
///
/// ``code`` says what kind of refusal it is (`error.code == .seqNotGreater`); ``message``
/// says what was wrong and what to do, in the words of `junction bundle publish`, which
/// prints it after the file it concerns.
public struct PublishError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of refusal this is.
    public let code: Code
    /// What was wrong (a seq, an epoch, a date, an object) and what to do.
    public let message: String

    /// Creates an error.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
