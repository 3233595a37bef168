/// A parameter value converted to its declared type.
public enum ParameterValue: Sendable, Hashable, CustomStringConvertible {
    /// Text.
    case string(String)
    /// An integer.
    case int(Int)
    /// A finite number.
    case double(Double)
    /// A truth value.
    case bool(Bool)
    /// A UUID in lower-case 8-4-4-4-12 form.
    case uuid(String)

    /// The value as text (`42`, `true`, `3.5`).
    public var description: String {
        switch self {
        case .string(let value), .uuid(let value): return value
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .bool(let value): return String(value)
        }
    }

    /// The declared type this value has.
    public var type: ParameterType {
        switch self {
        case .string: return .string
        case .int: return .int
        case .double: return .double
        case .bool: return .bool
        case .uuid: return .uuid
        }
    }
}
