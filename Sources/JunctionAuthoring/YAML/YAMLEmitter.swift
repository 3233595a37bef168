/// Writes a ``YAMLNode`` tree back as YAML that ``YAMLReader`` composes to the same tree —
/// the same scalars' text, their explicit tags, which of them are plain (only a plain
/// scalar can mean anything but text), the same order — though not the same marks.
///
/// Block style throughout, every pair with an explicit key (`? key` then `: value`), so a
/// key of any length or shape needs no special case; a scalar written plain stays plain
/// (its text, line breaks included, folded back as YAML reads plain scalars) but for the
/// few ``writesPlain(_:)`` refuses, which mean text either way; every other style becomes
/// double-quoted, each character outside YAML's printable set escaped. The
/// document starts with `---`. Tags are written verbatim (`!<tag:yaml.org,2002:str>`),
/// bytes outside a tag's safe characters percent-escaped.
package enum YAMLEmitter {
    /// The text of a document whose root is `root`.
    package static func document(_ root: YAMLNode) -> String {
        var output = "---"
        write(root, indent: 0, into: &output)
        output += "\n"
        return output
    }

    /// Writes `node` after an indicator (`---`, `?`, `:`, `-`) already written: a scalar on
    /// the same line, a collection on the lines after it, `indent` columns in.
    private static func write(_ node: YAMLNode, indent: Int, into output: inout String) {
        switch node.content {
        case .scalar(let scalar):
            if let tag = scalar.tag { output += " " + tagText(tag) }
            if scalar.isPlain && writesPlain(scalar.text) {
                writePlain(scalar.text, continuation: indent + 2, into: &output)
            } else {
                output += " " + doubleQuoted(scalar.text)
            }
        case .sequence(let items):
            guard !items.isEmpty else {
                output += " []"
                return
            }
            for item in items {
                output += "\n" + String(repeating: " ", count: indent) + "-"
                write(item, indent: indent + 2, into: &output)
            }
        case .mapping(let pairs):
            guard !pairs.isEmpty else {
                output += " {}"
                return
            }
            for pair in pairs {
                output += "\n" + String(repeating: " ", count: indent) + "?"
                write(pair.key, indent: indent + 2, into: &output)
                output += "\n" + String(repeating: " ", count: indent) + ":"
                write(pair.value, indent: indent + 2, into: &output)
            }
        }
    }

    /// Whether a plain scalar of `text` is written plain. Not when YAML would read it
    /// otherwise after an indicator: a first character that is an indicator itself (a lone
    /// `-`, `?` or `:` among them, plain only in flow style, `[-]`, or as a key before its
    /// colon, `-: x`); a colon before a blank or a line's end (an implicit key's text may
    /// end with one: `a:: x`); a `#` after a blank or at a line's start; a blank at a line's
    /// start or end; a line break but LF. Those — text whatever they hold, as none is a
    /// number, a boolean or null — are written double-quoted.
    package static func writesPlain(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.first else { return true }
        let isBlank = { (scalar: Unicode.Scalar?) in scalar == " " || scalar == "\t" }
        // Line breaks other than LF (CR, NEL, LS, PS) fold their own way.
        if scalars.contains(where: { ["\r", "\u{85}", "\u{2028}", "\u{2029}"].contains($0) }) { return false }
        if "-?:".unicodeScalars.contains(first) && (scalars.count == 1 || isBlank(scalars[1]) || scalars[1] == "\n") {
            return false
        }
        if ",[]{}#&*!|>'\"%@`".unicodeScalars.contains(first) { return false }
        for (index, scalar) in scalars.enumerated() {
            let before = index > 0 ? scalars[index - 1] : "\n"
            let after = index + 1 < scalars.count ? scalars[index + 1] : "\n"
            if scalar == ":" && (isBlank(after) || after == "\n") { return false }
            if scalar == "#" && (isBlank(before) || before == "\n") { return false }
            if isBlank(scalar) && (before == "\n" || after == "\n") { return false }
        }
        return true
    }

    /// A plain scalar's text: its lines — each line break of the text is a blank line, as
    /// folding reads it back — the ones after the first `continuation` columns in. An
    /// empty text is nothing at all.
    private static func writePlain(_ text: String, continuation: Int, into output: inout String) {
        guard !text.isEmpty else { return }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        output += " " + lines[0]
        for line in lines.dropFirst() {
            // Between two lines of text, a line break folds to a space; an empty line keeps
            // one: each break of the text is one more empty line.
            output += "\n"
            if !line.isEmpty { output += "\n" + String(repeating: " ", count: continuation) + line }
        }
    }

    /// `text` in double quotes, escaped where YAML needs it and where it could not be read
    /// back as written: quotes, backslashes, line breaks, tabs and every character outside
    /// YAML's printable set.
    static func doubleQuoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: quoted += "\\\""
            case 0x5C: quoted += "\\\\"
            case 0x0A: quoted += "\\n"
            case 0x09: quoted += "\\t"
            case 0x85: quoted += "\\N"
            case 0x2028: quoted += "\\L"
            case 0x2029: quoted += "\\P"
            case 0x20...0x7E, 0xA0...0xD7FF, 0xE000...0xFEFE, 0xFF00...0xFFFD, 0x10000...:
                quoted.unicodeScalars.append(scalar)
            default:
                quoted += "\\u" + hex(scalar.value, digits: 4)
            }
        }
        return quoted + "\""
    }

    /// A tag as written before its node: `!` alone for the non-specific tag, else verbatim.
    static func tagText(_ tag: String) -> String {
        guard tag != "!" else { return "!" }
        var text = "!<"
        for byte in tag.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                text.unicodeScalars.append(UnicodeScalar(byte))
            case _ where Array("-_;/?:@&=+$.!~*'(),".utf8).contains(byte):
                text.unicodeScalars.append(UnicodeScalar(byte))
            default:
                text += "%" + hex(UInt32(byte), digits: 2)
            }
        }
        return text + ">"
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
