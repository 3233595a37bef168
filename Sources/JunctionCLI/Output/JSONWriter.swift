import Junction

/// A JSON object written key by key, in the order given (the CLI's contract shows keys
/// in a fixed order; JSONEncoder would sort or shuffle them).
struct JSONWriter {
    enum Value {
        case string(String)
        case array([String])
        case raw(String)
        case null
    }

    private var members: [String] = []

    mutating func add(_ key: String, _ value: Value) {
        let text: String
        switch value {
        case .string(let string): text = Self.quote(string)
        case .array(let strings): text = "[" + strings.map(Self.quote).joined(separator: ", ") + "]"
        case .raw(let raw): text = raw
        case .null: text = "null"
        }
        members.append("\(Self.quote(key)): \(text)")
    }

    var rendered: String { "{" + members.joined(separator: ", ") + "}" }

    /// A JSON string literal (RFC 8259): quotes, backslashes and control characters escaped.
    static func quote(_ string: String) -> String { RuleValue.jsonQuoted(string) }
}
