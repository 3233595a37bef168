extension RuleValue: CustomStringConvertible {
    /// JSON-like text with keys sorted, for traces and test output: `{"id":7,"tab":"posts"}`.
    /// Binary strings show as `<bytes:hex>`, non-finite numbers as `nan`, `inf`, `-inf`,
    /// and `nil` as `null`.
    public var compactDescription: String {
        var text = ""
        write(to: &text)
        return text
    }

    /// The same as ``compactDescription``.
    public var description: String { compactDescription }

    private func write(to text: inout String) {
        switch self {
        case .nil: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .int(let number): text += String(number)
        case .double(let number):
            if number.isNaN {
                text += "nan"
            } else if number.isInfinite {
                text += number < 0 ? "-inf" : "inf"
            } else {
                text += "\(number)"
            }
        case .string(let string): Self.quote(string, into: &text)
        case .bytes(let bytes): text += "<bytes:" + bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined() + ">"
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += "," }
                item.write(to: &text)
            }
            text += "]"
        case .table(let fields):
            text += "{"
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                Self.quote(key, into: &text)
                text += ":"
                fields[key]!.write(to: &text)
            }
            text += "}"
        }
    }

    /// `string` as a JSON string literal (RFC 8259): quotes, backslashes, control
    /// characters, DEL and the JavaScript line separators escaped.
    package static func jsonQuoted(_ string: String) -> String {
        var text = ""
        quote(string, into: &text)
        return text
    }

    /// Appends `string` as a JSON string literal.
    static func quote(_ string: String, into text: inout String) {
        // Most text needs no escape: one pass over its bytes, and it is appended whole.
        // (0xE2 leads U+2028 and U+2029, and other scalars, which take the slow path.)
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 }) {
            text += "\""
            text += string
            text += "\""
            return
        }
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _
            where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                text += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
