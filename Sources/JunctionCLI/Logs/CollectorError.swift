/// Why the collector cannot start or go on: its message says what was wrong and what to do.
struct CollectorError: Error, Sendable, CustomStringConvertible {
    /// What was wrong, and what to do.
    let message: String

    /// An error saying `message`.
    init(_ message: String) {
        self.message = message
    }

    /// The message.
    var description: String { message }
}
