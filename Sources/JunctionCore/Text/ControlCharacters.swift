/// Scalars that change how the text around them reads without showing themselves: the C0
/// controls (newline, carriage return, tab …), DEL, the C1 controls, the line and paragraph
/// separators U+2028 and U+2029, and the bidirectional embeddings, overrides and isolates
/// (U+202A–U+202E, U+2066–U+2069).
///
/// Route names, parameter names, defaults and patterns may not hold them: the route table
/// refuses them when it loads, so no text of a table can end a line of generated code or
/// a message, or show itself reversed. Where text may hold them (a description), whatever
/// writes it out shows them escaped (``escaped(_:)``).
package enum ControlCharacters {
    /// Whether `scalar` is one of them.
    /// - Parameter scalar: A scalar.
    /// - Returns: Whether it is a control character, a line separator or a bidi control.
    package static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The first of them in `text`, with its UTF-8 offset.
    /// - Parameter text: Any text.
    /// - Returns: The scalar and where it starts, or `nil` when `text` holds none.
    package static func first(in text: String) -> (scalar: Unicode.Scalar, offset: Int)? {
        // Every one of them starts with a byte below 0x20, 0x7F, 0xC2 or 0xE2: most text
        // answers from its bytes without decoding a scalar.
        var offset = 0
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xE2 { break }
            offset += 1
        }
        guard offset < text.utf8.count else { return nil }
        for scalar in String(decoding: text.utf8.dropFirst(offset), as: UTF8.self).unicodeScalars {
            if contains(scalar) { return (scalar, offset) }
            offset += UTF8.width(scalar)
        }
        return nil
    }

    /// `text` with each of them written as Swift writes it in a string, `\u{A}`: one
    /// line that shows what it holds, for messages and generated comments.
    /// - Parameter text: Any text.
    /// - Returns: The text, escaped.
    package static func escaped(_ text: String) -> String {
        guard first(in: text) != nil else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if contains(scalar) {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `U+000A`: how a message names one of them.
    /// - Parameter scalar: A scalar.
    /// - Returns: Its code point.
    package static func name(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// `%E2%80%AE`: the scalar percent-encoded, as a pattern can hold it.
    /// - Parameter scalar: A scalar.
    /// - Returns: Its UTF-8 bytes, each `%XX`.
    package static func percentEncoded(_ scalar: Unicode.Scalar) -> String {
        String(scalar).utf8.map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return "%" + (hex.count == 1 ? "0" + hex : hex)
        }.joined()
    }
}
