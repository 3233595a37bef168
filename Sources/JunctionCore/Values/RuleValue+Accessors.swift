extension RuleValue {
    /// The value at `key` of a `.table`; `nil` when there is no such key or this
    /// is not a `.table`.
    ///
    /// - Parameter key: The field name.
    public subscript(key key: String) -> RuleValue? {
        guard case .table(let fields) = self else { return nil }
        return fields[key]
    }

    /// The element at the zero-based `index` of an `.array` (Lua's `t[index + 1]`);
    /// `nil` when the index is out of range or this is not an `.array`.
    ///
    /// - Parameter index: The zero-based position.
    public subscript(index index: Int) -> RuleValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The text of a `.string`, else `nil`.
    public var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The number of an `.int`, else `nil`.
    public var intValue: Int64? {
        guard case .int(let number) = self else { return nil }
        return number
    }

    /// The number of a `.double`, else `nil`; an `.int` is not converted.
    public var doubleValue: Double? {
        guard case .double(let number) = self else { return nil }
        return number
    }

    /// The flag of a `.bool`, else `nil`.
    public var boolValue: Bool? {
        guard case .bool(let flag) = self else { return nil }
        return flag
    }
}
