/// The type a route declares for a parameter. A path parameter whose text does not
/// convert makes its route not match, so `/user/:id` (int) and `/user/:name` can share a shape.
public enum ParameterType: String, Sendable, Hashable, CaseIterable {
    /// Any text.
    case string
    /// A decimal integer that fits in `Int` (`-12`, `42`).
    case int
    /// A finite decimal number (`3.5`, `-1e3`).
    case double
    /// `true`/`false`, `1`/`0` or `yes`/`no`, in any case.
    case bool
    /// A UUID in its 8-4-4-4-12 hexadecimal form.
    case uuid

    /// Converts text to a value of this type.
    /// - Parameter text: Decoded text.
    /// - Returns: The value, or `nil` when the text does not convert.
    package func convert(_ text: String) -> ParameterValue? {
        switch self {
        case .string:
            return .string(text)
        case .int:
            return Int(text).map(ParameterValue.int)
        case .double:
            guard let value = Double(text), value.isFinite,
                text.utf8.allSatisfy({ Bytes.isDigit($0) || "+-.eE".utf8.contains($0) })
            else { return nil }
            return .double(value)
        case .bool:
            switch text.lowercased() {
            case "true", "1", "yes": return .bool(true)
            case "false", "0", "no": return .bool(false)
            default: return nil
            }
        case .uuid:
            return Self.isUUID(text) ? .uuid(text.lowercased()) : nil
        }
    }

    private static func isUUID(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == 36 else { return false }
        for (i, byte) in utf8.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else if Bytes.hexValue(byte) == nil {
                return false
            }
        }
        return true
    }
}
