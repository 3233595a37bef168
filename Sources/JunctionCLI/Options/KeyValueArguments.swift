import Junction
import JunctionAuthoring

/// `key=value` command-line arguments as rule values; dotted keys nest (`user.id=42` →
/// `{ user = { id = 42 } }`).
///
/// Without a schema, values are typed as rule tests type plain YAML scalars (`42` an
/// integer, `4.5` a number, `true`/`false` booleans, `null` or nothing at all: no
/// value), and `"…"` (quoted) is always text. With the bundle's context schema, as rule
/// tests' `context:` is typed by it: the declared type decides what the text is
/// (`app_version=6.0` is the text `6.0`), quoted text fits only `string` and `version`,
/// a list is written `roles=[a, b]`, and an undeclared key is an error with the key it
/// likely meant.
enum KeyValueArguments {
    struct ParseError: Error {
        let message: String
    }

    /// One argument, split: its key's path and its value as written.
    struct Pair {
        let argument: String
        let path: [String]
        let value: String
    }

    /// Splits each `key=value`; a malformed one is an error naming it.
    static func split(_ arguments: [String], option: String) throws(ParseError) -> [Pair] {
        var pairs: [Pair] = []
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                throw ParseError(message: "\(option) \"\(argument)\": write key=value")
            }
            let path = argument[..<equals].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !path.contains(where: \.isEmpty) else {
                throw ParseError(message: "\(option) \"\(argument)\": a key has an empty part")
            }
            pairs.append(
                Pair(argument: argument, path: path, value: String(argument[argument.index(after: equals)...])))
        }
        return pairs
    }

    /// The arguments as a table of values, typed by `schema` when given.
    static func parse(_ arguments: [String], option: String, schema: ContextSchema? = nil) throws(ParseError)
        -> [String: RuleValue]
    {
        var result: [String: RuleValue] = [:]
        for pair in try split(arguments, option: option) {
            let value: RuleValue
            if let schema {
                do throws(ParseError) {
                    value = try typed(pair, schema)
                } catch {
                    throw ParseError(message: "\(option) \"\(pair.argument)\": \(error.message)")
                }
            } else {
                value = typed(pair.value)
            }
            guard insert(value, at: pair.path[...], into: &result) else {
                throw ParseError(
                    message:
                        "\(option) \"\(pair.argument)\": \(pair.path.dropLast().joined(separator: ".")) is already a value, not a table"
                )
            }
        }
        return result
    }

    /// Quoted text is text; anything else is typed as a plain YAML scalar, as in rule tests.
    private static func typed(_ text: String) -> RuleValue {
        if let quoted = unquoted(text) { return .string(quoted) }
        return YAMLReader.plainScalar(text)
    }

    private static func unquoted(_ text: String) -> String? {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return nil }
        return String(text.dropFirst().dropLast())
    }

    /// The value typed by the type `schema` declares at the pair's path.
    private static func typed(_ pair: Pair, _ schema: ContextSchema) throws(ParseError) -> RuleValue {
        var table = schema
        var type = ContextType.any
        for (depth, key) in pair.path.enumerated() {
            let prefix = pair.path[..<depth].map { $0 + "." }.joined()
            guard let declared = table[key] else {
                var budget = ContextSchema.suggestionBudget
                throw ParseError(message: table.undeclaredMessage(key, prefix: prefix, budget: &budget))
            }
            type = declared
            guard depth < pair.path.count - 1 else { break }
            if case .table(let inner) = declared {
                table = inner
            } else if declared == .any {
                break  // below an `any`, nothing is declared: typed as without a schema
            } else {
                throw ParseError(
                    message:
                        "context \(prefix + key) is declared \(declared.shortName), not a table: it has no \(pair.path[depth + 1])"
                )
            }
        }
        if type == .any { return typed(pair.value) }
        var yaml = YAMLReader(file: "", document: "a --context value")
        let start = YAMLMark(line: 1, column: 1)
        let node: YAMLNode?
        if let quoted = unquoted(pair.value) {
            node = YAMLNode(.scalar(YAMLScalar(quoted, style: .doubleQuoted)), at: start)
        } else if case .list = type, pair.value.hasPrefix("[") {
            node = yaml.compose(pair.value)
        } else {
            node = YAMLNode(.scalar(YAMLScalar(pair.value)), at: start)
        }
        let value = node.map { yaml.contextValue($0, type, path: pair.path.joined(separator: ".")) } ?? .nil
        if let problem = yaml.diagnostics.first { throw ParseError(message: problem.message) }
        return value
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
