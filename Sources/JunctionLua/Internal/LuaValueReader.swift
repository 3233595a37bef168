internal import CLua

/// Converts one value on the Lua stack into a ``LuaValue``.
///
/// Tables are read raw (`lua_next`), so metatables are ignored and no Lua code runs:
/// a raising `__index` or `__pairs` cannot reach the host. Every call here is one
/// that cannot raise: `lua_type`, `lua_to*` on values of the matching type
/// (`lua_tolstring` only on strings, which it does not convert), `lua_topointer`,
/// `lua_checkstack` (reports failure instead of raising), `lua_pushnil`,
/// `lua_settop` (only lowering over plain values), and `lua_next` with the key it
/// returned itself on a table nothing modifies meanwhile.
struct LuaValueReader {
    /// How deeply tables may nest; the outermost table is level 1.
    static let maximumDepth = 32

    private let state: OpaquePointer
    private let chunkName: String
    private let resultNumber: Int
    /// The tables being read, outermost first, to recognise a cycle.
    private var ancestors: Set<UnsafeRawPointer> = []
    /// Where in the result the reader is, as Lua would index it: `.rules[2]`.
    private var path: [String] = []

    /// Creates a reader for the `resultNumber`th value a chunk in `chunkName` returned.
    init(state: OpaquePointer, chunkName: String, resultNumber: Int) {
        self.state = state
        self.chunkName = chunkName
        self.resultNumber = resultNumber
    }

    /// The value at the absolute stack `index`; the stack is unchanged afterwards.
    ///
    /// - Throws: ``LuaError/Code/conversion`` for a function, userdata or thread, a
    ///   cycle, tables nested deeper than ``maximumDepth``, or two keys that convert alike.
    mutating func read(at index: Int32, isKey: Bool = false) throws(LuaError) -> LuaValue {
        switch lua_type(state, index) {
        case LUA_TNIL, LUA_TNONE:
            return .nil
        case LUA_TBOOLEAN:
            return .bool(lua_toboolean(state, index) != 0)
        case LUA_TNUMBER:
            return lua_isinteger(state, index) != 0
                ? .integer(jl_tointeger(state, index)) : .double(jl_tonumber(state, index))
        case LUA_TSTRING:
            var length = 0
            let bytes = UnsafeRawBufferPointer(start: lua_tolstring(state, index, &length), count: length)
            return String(validating: bytes, as: UTF8.self).map(LuaValue.string) ?? .bytes(Array(bytes))
        case LUA_TTABLE:
            return try readTable(at: index)
        default:
            let type = String(cString: jl_typename(state, index))
            let subject = isKey ? "a key in \(location)" : location
            throw failure("\(subject) is a \(type); only nil, booleans, numbers, strings and tables convert")
        }
    }

    private mutating func readTable(at index: Int32) throws(LuaError) -> LuaValue {
        guard ancestors.count < Self.maximumDepth else {
            throw failure("tables nest deeper than \(Self.maximumDepth) levels; return flatter tables")
        }
        guard ancestors.insert(lua_topointer(state, index).unsafelyUnwrapped).inserted else {
            throw failure("\(location) refers back to a table that contains it (a cycle); return tables without cycles")
        }
        defer { ancestors.remove(lua_topointer(state, index).unsafelyUnwrapped) }
        guard lua_checkstack(state, 2) != 0 else {
            throw failure("not enough Lua stack to read \(location)")
        }
        var entries: [LuaValue: LuaValue] = [:]
        lua_pushnil(state)
        while lua_next(state, index) != 0 {
            // Stack: ..., key, value.
            let valueIndex = lua_gettop(state)
            let key = try read(at: valueIndex - 1, isKey: true)
            path.append(Self.pathComponent(for: key))
            defer { path.removeLast() }
            let value = try read(at: valueIndex)
            guard entries.updateValue(value, forKey: key) == nil else {
                throw failure("two keys of \(location) convert to the same value; use distinct keys")
            }
            lua_settop(state, valueIndex - 1)  // keep the key for `lua_next`
        }
        return .table(entries)
    }

    private var location: String {
        path.isEmpty ? "the value" : path.joined()
    }

    private func failure(_ problem: String) -> LuaError {
        LuaError(
            code: .conversion, chunkName: chunkName, line: nil,
            message: "cannot convert return value #\(resultNumber): \(problem)")
    }

    private static func pathComponent(for key: LuaValue) -> String {
        switch key {
        case .string(let name) where isIdentifier(name): ".\(name)"
        case .string(let text): "[\(String(reflecting: text))]"
        case .integer(let number): "[\(number)]"
        case .double(let number): "[\(number)]"
        case .bool(let flag): "[\(flag)]"
        case .bytes(let bytes): "[<\(bytes.count) bytes>]"
        case .table: "[{...}]"
        case .nil: "[nil]"
        }
    }

    private static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return text.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || (0x30...0x39).contains($0) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
