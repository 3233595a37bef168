extension LuaValue: ExpressibleByBooleanLiteral {
    /// Creates a `.bool`.
    ///
    /// - Parameter value: The boolean.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension LuaValue: ExpressibleByIntegerLiteral {
    /// Creates an `.integer`.
    ///
    /// - Parameter value: The integer.
    public init(integerLiteral value: Int64) {
        self = .integer(value)
    }
}

extension LuaValue: ExpressibleByFloatLiteral {
    /// Creates a `.double`.
    ///
    /// - Parameter value: The float.
    public init(floatLiteral value: Double) {
        self = .double(value)
    }
}

extension LuaValue: ExpressibleByStringLiteral {
    /// Creates a `.string`.
    ///
    /// - Parameter value: The string.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension LuaValue: ExpressibleByArrayLiteral {
    /// Creates a `.table` with the elements at keys `1...n`, as the Lua constructor `{a, b}` does.
    ///
    /// - Parameter elements: The array's elements, in order.
    public init(arrayLiteral elements: LuaValue...) {
        self = .table(Dictionary(uniqueKeysWithValues: zip(Int64(1)..., elements).map { (.integer($0), $1) }))
    }
}

extension LuaValue: ExpressibleByDictionaryLiteral {
    /// Creates a `.table` with the given entries.
    ///
    /// - Parameter elements: Key-value pairs; keys must be distinct.
    public init(dictionaryLiteral elements: (LuaValue, LuaValue)...) {
        self = .table(Dictionary(uniqueKeysWithValues: elements))
    }
}
