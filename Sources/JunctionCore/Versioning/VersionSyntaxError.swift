/// Text that is not a version, as ``SemanticVersion/init(parsing:)`` reads versions: the
/// text, where the problem is, and what was expected there.
///
/// ```swift
/// "\(error)"  // "5..1" is not a version: expected a number at byte 3, found "."; versions read like …
/// ```
public struct VersionSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text that was read (whole: ``description`` shortens it).
    public let text: String
    /// Where the problem is, in UTF-8 bytes from the start of ``text`` (0-based).
    public let offset: Int
    /// The problem, such as `expected a number at byte 3, found "."`.
    public let problem: String

    /// Creates an error.
    /// - Parameters:
    ///   - text: The text that was read.
    ///   - offset: Where the problem is, in UTF-8 bytes from its start.
    ///   - problem: What was wrong there.
    package init(text: String, offset: Int, problem: String) {
        self.text = text
        self.offset = offset
        self.problem = problem
    }

    /// What a reader of the message should write instead.
    static let examples = "versions read like 6.2, v6.0.1, 6.0.1-beta.2 or 6.0.1 (1234)"

    /// The longest text the message quotes whole; a longer one is cut, so an error about
    /// a megabyte of text is not a megabyte long.
    static let quotedLength = 40

    /// `"5..1" is not a version: expected a number at byte 3, found "."; versions read
    /// like 6.2, v6.0.1, 6.0.1-beta.2 or 6.0.1 (1234)`.
    public var description: String {
        "\(Self.quoted(text)) is not a version: \(problem); \(Self.examples)"
    }

    /// `text` in double quotes, cut after ``quotedLength`` characters.
    static func quoted(_ text: String) -> String {
        let cut = text.index(text.startIndex, offsetBy: quotedLength, limitedBy: text.endIndex) ?? text.endIndex
        return cut == text.endIndex ? "\"\(text)\"" : "\"\(text[..<cut])…\""
    }
}
