/// Why an ``OptionValue`` refused a text: what the text is not, and what would do
/// (`not a whole number from 1 to 9007199254740991`). ArgumentParser prints it after the
/// option and the text.
struct OptionValueError: Error, Equatable, CustomStringConvertible {
    /// What the text is not, and what would do.
    let reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    var description: String { reason }
}
