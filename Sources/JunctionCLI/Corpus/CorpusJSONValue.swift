import Junction

/// A JSON value of a corpus line, decoded with `JSONDecoder` (which tells `true` from `1`)
/// and turned into a rule value: integers stay integers, other numbers are numbers.
enum CorpusJSONValue: Decodable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([CorpusJSONValue])
    case object([String: CorpusJSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int64.self) {
            self = .int(number)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([CorpusJSONValue].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: CorpusJSONValue].self))
        }
    }

    /// The rule value.
    var ruleValue: RuleValue {
        switch self {
        case .null: .nil
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .array(let items): .array(items.map(\.ruleValue))
        case .object(let fields): .table(fields.mapValues(\.ruleValue))
        }
    }
}
