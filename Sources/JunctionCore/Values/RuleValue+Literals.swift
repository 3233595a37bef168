extension RuleValue: ExpressibleByBooleanLiteral {
    /// Creates a `.bool`.
    ///
    /// - Parameter value: The boolean.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension RuleValue: ExpressibleByIntegerLiteral {
    /// Creates an `.int`; write `3.0` for a `.double`.
    ///
    /// - Parameter value: The integer.
    public init(integerLiteral value: Int64) {
        self = .int(value)
    }
}

extension RuleValue: ExpressibleByFloatLiteral {
    /// Creates a `.double`.
    ///
    /// - Parameter value: The float.
    public init(floatLiteral value: Double) {
        self = .double(value)
    }
}

extension RuleValue: ExpressibleByStringLiteral {
    /// Creates a `.string`.
    ///
    /// - Parameter value: The string.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension RuleValue: ExpressibleByArrayLiteral {
    /// Creates an `.array`, which Lua sees with the elements at keys `1...n`.
    ///
    /// - Parameter elements: The elements, in order.
    public init(arrayLiteral elements: RuleValue...) {
        self = .array(elements)
    }
}

extension RuleValue: ExpressibleByDictionaryLiteral {
    /// Creates a `.table`.
    ///
    /// - Parameter elements: Key-value pairs; keys must be distinct.
    public init(dictionaryLiteral elements: (String, RuleValue)...) {
        self = .table(Dictionary(uniqueKeysWithValues: elements))
    }
}
