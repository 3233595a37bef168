import Junction

/// `key=value` command-line arguments as rule values, typed as rule tests type plain
/// YAML scalars (`42` an integer, `4.5` a number, `true`/`false` booleans, `null` or
/// nothing at all: no value), `"…"` (quoted) always text; dotted keys nest (`user.id=42` → `{ user = { id = 42 } }`).
enum KeyValueArguments {
    struct ParseError: Error {
        let message: String
    }

    static func parse(_ arguments: [String], option: String) throws(ParseError) -> [String: RuleValue] {
        var result: [String: RuleValue] = [:]
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                throw ParseError(message: "\(option) \"\(argument)\": write key=value")
            }
            let path = argument[..<equals].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !path.contains(where: \.isEmpty) else {
                throw ParseError(message: "\(option) \"\(argument)\": a key has an empty part")
            }
            let value = typed(String(argument[argument.index(after: equals)...]))
            guard insert(value, at: path[...], into: &result) else {
                throw ParseError(
                    message:
                        "\(option) \"\(argument)\": \(path.dropLast().joined(separator: ".")) is already a value, not a table"
                )
            }
        }
        return result
    }

    /// Quoted text is text; anything else is typed as a plain YAML scalar, as in rule tests.
    private static func typed(_ text: String) -> RuleValue {
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
            return .string(String(text.dropFirst().dropLast()))
        }
        return YAMLReader.plainScalar(text)
    }

    private static func insert(_ value: RuleValue, at path: ArraySlice<String>, into table: inout [String: RuleValue])
        -> Bool
    {
        let key = path.first!
        if path.count == 1 {
            if case .nil = value { table[key] = nil } else { table[key] = value }
            return true
        }
        var inner: [String: RuleValue]
        switch table[key] {
        case nil: inner = [:]
        case .table(let fields)?: inner = fields
        default: return false
        }
        guard insert(value, at: path.dropFirst(), into: &inner) else { return false }
        table[key] = .table(inner)
        return true
    }
}
