/// The type a bundle's context schema declares for a context key: what rules may rely on
/// when the key is present (every key may be absent: guests have no `user`).
///
/// In `manifest.yaml`:
///
/// ```yaml
/// context:
///   app_version: version        # text that parses as a version: "5.2", "6.0.0-beta.1"
///   hour: int
///   score: number               # an integer or a float
///   locale: string
///   vip: bool
///   roles: [string]             # a list, every item of one type
///   user: { id: int, age: int } # a table with exactly these keys
///   experiments: any            # anything, unchecked
/// ```
public indirect enum ContextType: Sendable, Hashable, CustomStringConvertible {
    /// Text (a Lua string).
    case string
    /// A Lua integer.
    case int
    /// A Lua number: an integer or a float.
    case number
    /// `true` or `false`.
    case bool
    /// Text that parses as a ``SemanticVersion``, such as `5.2.0`; rules compare it with
    /// `version.compare`.
    case version
    /// Any value, unchecked: for a table whose keys are data rather than names.
    case any
    /// A list whose every item has the given type (`[string]`).
    case list(ContextType)
    /// A table whose keys the schema declares; a key it does not declare is a mistake.
    case table(ContextSchema)

    /// The type names a manifest may write, in the order messages list them.
    package static let names = ["string", "int", "number", "bool", "version", "any"]

    /// The scalar type named `name` as a manifest writes it, or `nil`.
    /// - Parameter name: `int`, `version` …
    package init?(name: String) {
        switch name {
        case "string": self = .string
        case "int": self = .int
        case "number": self = .number
        case "bool": self = .bool
        case "version": self = .version
        case "any": self = .any
        default: return nil
        }
    }

    /// As the manifest writes it: `int`, `[string]`, `{ id: int, age: int }`.
    public var description: String {
        switch self {
        case .string: "string"
        case .int: "int"
        case .number: "number"
        case .bool: "bool"
        case .version: "version"
        case .any: "any"
        case .list(let item): "[\(item)]"
        case .table(let schema): schema.description
        }
    }

    /// How messages name the type: the scalar types and lists as written, a table as
    /// `a table` (its keys are in the schema; a large one would drown the message).
    package var shortName: String {
        if case .table = self { return "a table" }
        return description
    }

    /// Whether `value` is of this type on its own level: a list's items and a table's
    /// keys are for the caller to check. `nil` (absent) is of every type.
    /// - Parameter value: A context value.
    /// - Returns: The answer.
    package func admits(_ value: RuleValue) -> Bool {
        switch (self, value) {
        case (_, .nil), (.any, _), (.string, .string), (.string, .bytes), (.int, .int), (.number, .int),
            (.number, .double), (.bool, .bool), (.list, .array), (.table, .table):
            true
        case (.version, .string(let text)):
            SemanticVersion(text) != nil
        // An empty Lua table is both a list and a table; RuleValue reads it back as a table.
        case (.list, .table(let fields)):
            fields.isEmpty
        case (.table, .array(let items)):
            items.isEmpty
        default:
            false
        }
    }
}
