import JunctionCore
internal import CLua

/// Converts one value on the Lua stack into a ``RuleValue``.
///
/// Safe from Swift with references alive: every Lua call here is one that cannot
/// raise — `lua_type`, `lua_toboolean`, `lua_tointegerx`/`lua_tonumberx` on numbers,
/// `lua_tolstring` only on strings (which it does not convert), `lua_topointer`,
/// `lua_rawlen`, `lua_getmetatable`/`lua_rawgetp` (to find a read-only table's
/// backing), `lua_checkstack` (which reports failure instead of raising),
/// `lua_pushnil`, `lua_settop` lowering over plain values, and `lua_next` with the
/// key it returned itself on a table nothing modifies meanwhile.
///
/// Tables are read raw, so metatables are ignored and no Lua code runs: a raising
/// or looping `__index`, `__pairs` or `__len` is never called (Redis #11030). The
/// one exception is a read-only table made by ``ReadOnlyTables``, whose backing is
/// read instead of its empty proxy, so a rule can return part of its read-only input.
///
/// See ``RuleValue`` for how tables map to `.array` and `.table`; every refusal is a
/// ``LuaError/Code/conversion`` error naming the chunk and the path, such as
/// `cannot read result.items[3].x from Lua: it is a function; …`.
struct RuleValueReader {
    private let state: OpaquePointer
    private let chunkName: String
    private let limits: RuleValueLimits
    private let name: String
    /// The tables being read, outermost first, to recognise a cycle.
    private var ancestors: [UnsafeRawPointer] = []
    /// The values and string bytes the last ``read(at:)`` went through, so far as it got:
    /// the work a caller charges for it.
    private(set) var valueCount = 0
    private(set) var stringBytes = 0

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - chunkName: The chunk or rule the value comes from, for errors.
    ///   - limits: How large a value may be.
    ///   - name: What errors call the value: the root of paths such as `result.items[3]`.
    init(state: OpaquePointer, chunkName: String, limits: RuleValueLimits = .default, name: String = "result") {
        self.state = state
        self.chunkName = chunkName
        self.limits = limits
        self.name = name
    }

    /// The value at stack `index` (absolute or relative); the stack is unchanged afterwards.
    ///
    /// - Throws: ``LuaError/Code/conversion`` for a function, userdata or thread; a
    ///   table that is neither an array nor all string keys; a key that is not valid
    ///   UTF-8; a cycle; or a value beyond the limits.
    mutating func read(at index: Int32) throws(LuaError) -> RuleValue {
        ancestors.removeAll(keepingCapacity: true)
        valueCount = 0
        stringBytes = 0
        do throws(RuleValueConversionFailure) {
            return try value(at: lua_absindex(state, index))
        } catch {
            throw error.luaError(chunkName: chunkName, root: name, verb: "cannot read", direction: "from Lua")
        }
    }

    private mutating func value(at index: Int32) throws(RuleValueConversionFailure) -> RuleValue {
        valueCount += 1
        guard valueCount <= limits.maximumValueCount else { throw tooManyValues }
        switch lua_type(state, index) {
        case LUA_TNIL, LUA_TNONE:
            return .nil
        case LUA_TBOOLEAN:
            return .bool(lua_toboolean(state, index) != 0)
        case LUA_TNUMBER:
            return lua_isinteger(state, index) != 0
                ? .int(lua_tointegerx(state, index, nil)) : .double(lua_tonumberx(state, index, nil))
        case LUA_TSTRING:
            let bytes = try countedString(at: index)
            return Self.text(bytes).map(RuleValue.string) ?? .bytes(Array(bytes))
        case LUA_TTABLE:
            return try table(at: index)
        case LUA_TUSERDATA:
            if let view = RequestUserdata.value(at: index, in: state) { return view ?? .nil }
            fallthrough
        default:
            throw RuleValueConversionFailure(
                "it is a \(typeName(at: index)); only nil, booleans, numbers, strings and tables can leave Lua")
        }
    }

    private mutating func table(at index: Int32) throws(RuleValueConversionFailure) -> RuleValue {
        guard ancestors.count < limits.maximumDepth else {
            throw RuleValueConversionFailure(
                "tables nest deeper than \(limits.maximumDepth) levels;"
                    + " return flatter tables or raise RuleValueLimits.maximumDepth")
        }
        guard lua_checkstack(state, 3) != 0 else {
            throw RuleValueConversionFailure("there is not enough Lua stack to read it")
        }
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        let table = ReadOnlyTables.pushBacking(state, of: index) ? top + 1 : index
        let identity = lua_topointer(state, table).unsafelyUnwrapped
        guard !ancestors.contains(identity) else {
            throw RuleValueConversionFailure(
                "it is a table that contains it (a cycle); return tables without cycles")
        }
        ancestors.append(identity)
        defer { ancestors.removeLast() }

        let count = entryCount(of: table)
        // Checked before anything is allocated for the entries.
        guard count <= limits.maximumValueCount - valueCount else { throw tooManyValues }
        var shape = TableShape(count: count)
        lua_pushnil(state)
        while lua_next(state, table) != 0 {
            // Stack: ..., key, value.
            let key = lua_gettop(state) - 1
            do throws(RuleValueConversionFailure) {
                try readEntry(key: key, into: &shape)
            } catch {
                throw error.prepending(keyComponent(at: key))
            }
            lua_settop(state, key)  // keep the key for `lua_next`
        }
        return shape.value()
    }

    private var tooManyValues: RuleValueConversionFailure {
        RuleValueConversionFailure(
            "there are more than \(limits.maximumValueCount) values in all;"
                + " return less data or raise RuleValueLimits.maximumValueCount")
    }

    /// How many entries the table at `table` has, so the result is allocated once.
    private func entryCount(of table: Int32) -> Int {
        var count = 0
        lua_pushnil(state)
        while lua_next(state, table) != 0 {
            count += 1
            jl_pop(state, 1)
        }
        return count
    }

    /// Reads the key at `key` and the value above it into `shape`.
    private mutating func readEntry(key: Int32, into shape: inout TableShape) throws(RuleValueConversionFailure) {
        switch lua_type(state, key) {
        case LUA_TNUMBER where lua_isinteger(state, key) != 0:
            let position = try shape.arrayPosition(of: lua_tointegerx(state, key, nil))
            shape.insert(try value(at: key + 1), at: position)
        case LUA_TSTRING:
            try shape.expectTable()
            let bytes = try countedString(at: key)
            guard let field = Self.text(bytes) else {
                throw RuleValueConversionFailure("the key is not valid UTF-8; table keys must be text")
            }
            try shape.insert(try value(at: key + 1), for: field)
        case LUA_TNUMBER:
            throw RuleValueConversionFailure(
                "the key is a float; only string keys and integer keys 1...n can leave Lua")
        default:
            throw RuleValueConversionFailure(
                "the key is a \(typeName(at: key)); only string keys and integer keys 1...n can leave Lua")
        }
    }

    /// The bytes of the string at `index`, counted against the string limit.
    private mutating func countedString(at index: Int32) throws(RuleValueConversionFailure) -> UnsafeRawBufferPointer {
        var length = 0
        let bytes = UnsafeRawBufferPointer(start: lua_tolstring(state, index, &length), count: length)
        stringBytes += length
        guard stringBytes <= limits.maximumStringBytes else {
            throw RuleValueConversionFailure(
                "its strings hold more than \(limits.maximumStringBytes) bytes in all;"
                    + " return less text or raise RuleValueLimits.maximumStringBytes")
        }
        return bytes
    }

    /// How the key at `index` appears in a path.
    private func keyComponent(at index: Int32) -> RuleValuePath.Component {
        switch lua_type(state, index) {
        case LUA_TNUMBER where lua_isinteger(state, index) != 0:
            return .index(lua_tointegerx(state, index, nil))
        case LUA_TNUMBER:
            return .rendered("[\(lua_tonumberx(state, index, nil))]")
        case LUA_TBOOLEAN:
            return .rendered("[\(lua_toboolean(state, index) != 0)]")
        case LUA_TSTRING:
            var length = 0
            let bytes = UnsafeRawBufferPointer(start: lua_tolstring(state, index, &length), count: length)
            guard let field = String(validating: bytes, as: UTF8.self) else {
                return .rendered("[\(RuleValuePath.quoted(Array(bytes)))]")
            }
            return .field(field)
        default:
            return .rendered("[<\(typeName(at: index))>]")
        }
    }

    /// The bytes as a string when they are valid UTF-8. Faster than
    /// `String(validating:as:)`, which is not specialised for raw buffers.
    static func text(_ bytes: UnsafeRawBufferPointer) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)  // replaces invalid sequences with U+FFFD
        if bytes.allSatisfy({ $0 < 0x80 }) { return text }
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    private func typeName(at index: Int32) -> String {
        String(cString: jl_typename(state, index))
    }

    /// What a table read so far turns into: an array while its keys are integers,
    /// a table while they are strings. Sized once, from the table's entry count.
    private struct TableShape {
        private enum Kind { case empty, array, table }

        private let count: Int
        private var kind = Kind.empty
        private var elements: [RuleValue] = []
        private var fields: [String: RuleValue] = [:]

        init(count: Int) {
            self.count = count
        }

        /// The zero-based position for the integer key `key`, or the failure when
        /// the table mixes key kinds or `key` is outside `1...count` (so some key
        /// in that range is missing).
        mutating func arrayPosition(of key: Int64) throws(RuleValueConversionFailure) -> Int {
            switch kind {
            case .array: break
            case .table: throw Self.mixedKeys
            case .empty:
                kind = .array
                elements = Array(repeating: .nil, count: count)
            }
            guard key >= 1 else {
                throw RuleValueConversionFailure(
                    "an array's keys must be 1...n, and \(key) is below 1; use string keys or start at 1")
            }
            guard key <= count else {
                throw RuleValueConversionFailure(
                    "an array's keys must be 1...n without holes, and this table has \(count) entries,"
                        + " so its keys must be 1...\(count); fill the hole or use string keys")
            }
            return Int(key) - 1
        }

        mutating func insert(_ element: RuleValue, at position: Int) {
            elements[position] = element
        }

        /// Notes a string key.
        mutating func expectTable() throws(RuleValueConversionFailure) {
            switch kind {
            case .table: return
            case .array: throw Self.mixedKeys
            case .empty:
                kind = .table
                fields.reserveCapacity(count)
            }
        }

        mutating func insert(_ value: RuleValue, for key: String) throws(RuleValueConversionFailure) {
            guard fields.updateValue(value, forKey: key) == nil else {
                throw RuleValueConversionFailure(
                    "another key of the table is the same text in a different Unicode normalization;"
                        + " use keys that differ as text")
            }
        }

        /// The converted table.
        func value() -> RuleValue {
            switch kind {
            case .empty: .table([:])
            case .array: .array(elements)
            case .table: .table(fields)
            }
        }

        private static var mixedKeys: RuleValueConversionFailure {
            RuleValueConversionFailure(
                "the table mixes integer and string keys; use an array (keys 1...n) or string keys only")
        }
    }
}
