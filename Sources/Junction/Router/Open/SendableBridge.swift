import JunctionCore

/// Turns the caller's `any Sendable` parameters into the rule values rules may read,
/// keeping the rest (model objects) aside for the target.
enum SendableBridge {
    /// Splits parameters into rule values and objects; `nil` values are dropped.
    static func split(_ params: [String: any Sendable]) -> (
        values: [String: RuleValue], objects: [String: any Sendable]
    ) {
        var values: [String: RuleValue] = [:]
        var objects: [String: any Sendable] = [:]
        for (name, value) in params {
            if isNil(value) { continue }
            if let converted = ruleValue(value) { values[name] = converted } else { objects[name] = value }
        }
        return (values, objects)
    }

    /// The rule value for `value`, or `nil` when it is not one (a class, a struct, a
    /// collection holding either).
    static func ruleValue(_ value: Any) -> RuleValue? {
        switch value {
        case let value as RuleValue: return value
        case let value as String: return .string(value)
        case let value as Substring: return .string(String(value))
        case let value as Bool: return .bool(value)
        case let value as Int: return .int(Int64(value))
        case let value as Int64: return .int(value)
        case let value as Int32: return .int(Int64(value))
        case let value as Int16: return .int(Int64(value))
        case let value as Int8: return .int(Int64(value))
        case let value as UInt8: return .int(Int64(value))
        case let value as UInt16: return .int(Int64(value))
        case let value as UInt32: return .int(Int64(value))
        case let value as UInt: return Int64(exactly: value).map(RuleValue.int)
        case let value as UInt64: return Int64(exactly: value).map(RuleValue.int)
        case let value as Double: return .double(value)
        case let value as Float: return .double(Double(value))
        case let value as ParameterValue: return RuleValue(value)
        case let value as [Any]:
            var elements: [RuleValue] = []
            elements.reserveCapacity(value.count)
            for element in value {
                guard let converted = ruleValue(element) else { return nil }
                elements.append(converted)
            }
            return .array(elements)
        case let value as [String: Any]:
            var fields: [String: RuleValue] = [:]
            for (key, element) in value {
                guard let converted = ruleValue(element) else { return nil }
                fields[key] = converted
            }
            return .table(fields)
        default: return nil
        }
    }

    /// Whether `value` is an `Optional.none` boxed as `Any`.
    private static func isNil(_ value: Any) -> Bool {
        if case Optional<Any>.none = value as Any? { return true }
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }
}
