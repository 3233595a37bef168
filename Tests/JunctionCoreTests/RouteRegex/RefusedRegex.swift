import Testing

/// One row of the refusals table: a regex and the error it must get, word for word.
struct RefusedRegex: CustomTestStringConvertible, Sendable {
    let regex: String
    let message: String
    /// UTF-8 offset of the problem in the regex.
    let offset: Int

    init(_ regex: String, _ message: String, at offset: Int) {
        self.regex = regex
        self.message = message
        self.offset = offset
    }

    var testDescription: String { "/\(regex)/" }
}
