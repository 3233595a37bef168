/// How messages — errors, findings, refusals — repeat a name or literal taken from input:
/// quoted and cut, so a hostile 1 MB name makes a one-line message.
package enum MessageText {
    /// The most characters of a name or literal a message repeats.
    package static let shownLength = 64

    /// `text` in double quotes, cut after ``shownLength`` characters.
    /// - Parameter text: The name or literal.
    /// - Returns: The quoted text.
    package static func quoted(_ text: String) -> String {
        text.count > shownLength ? "\"\(text.prefix(shownLength))…\"" : "\"\(text)\""
    }
}
