import Junction

extension RuleValue {
    /// Strict JSON (RFC 8259): keys sorted; NaN and the infinities, which JSON lacks, as
    /// the strings `"nan"`, `"inf"`, `"-inf"`; binary strings as `{"bytes": "hex"}`.
    var json: String {
        switch self {
        case .nil: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number):
            if number.isNaN { return "\"nan\"" }
            if number.isInfinite { return number < 0 ? "\"-inf\"" : "\"inf\"" }
            return "\(number)"
        case .string(let text): return JSONWriter.quote(text)
        case .bytes(let bytes):
            let hex = bytes.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
            return "{\"bytes\": \(JSONWriter.quote(hex))}"
        case .array(let items): return "[" + items.map(\.json).joined(separator: ", ") + "]"
        case .table(let fields):
            return "{"
                + fields.keys.sorted().map { "\(JSONWriter.quote($0)): \(fields[$0]!.json)" }.joined(separator: ", ")
                + "}"
        }
    }
}
