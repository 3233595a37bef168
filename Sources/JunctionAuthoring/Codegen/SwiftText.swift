import JunctionCore

/// Text of a route table as generated Swift holds it: in a string literal, escaped; in a
/// comment, on one line. The table refuses control characters in names, defaults and
/// patterns when it loads, but the writer trusts no text: nothing a table says can end a
/// comment or a literal, so everything it says stays data.
enum SwiftText {
    /// A Swift string literal of `text`: `"` and `\` escaped, every control character
    /// (``ControlCharacters``) as `\u{…}`, so the literal is one line and ends where it
    /// should.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where ControlCharacters.contains(scalar):
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `text` for the rest of a `//` line: line breaks (a description's paragraphs)
    /// become spaces, and any other control character is written `\u{…}`.
    static func comment(_ text: String) -> String {
        ControlCharacters.escaped(text.split(whereSeparator: \.isNewline).joined(separator: " "))
    }

    /// `text` as inline code in a documentation comment: on one line (``comment(_:)``),
    /// between enough backticks that none inside closes it.
    static func code(_ text: String) -> String {
        let text = comment(text)
        var longest = 0
        var run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        guard longest > 0 else { return "`\(text)`" }
        let fence = String(repeating: "`", count: longest + 1)
        return "\(fence) \(text) \(fence)"
    }
}
