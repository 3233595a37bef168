import JunctionCore
internal import CLua

/// Pushes a ``RuleValue`` onto the Lua stack.
///
/// Building tables allocates, and any allocation may raise Lua's out-of-memory
/// error — a `longjmp` that must not cross a Swift frame holding references. So the
/// push happens in three steps:
///
/// 1. *Plan*, in Swift, without touching Lua: check the value against
///    ``RuleValueLimits`` (and refuse `nil` inside tables) and measure its encoding.
/// 2. *Encode* it into one flat buffer of tags, lengths and string bytes, which
///    holds no Swift references.
/// 3. *Build* it in Lua: ``build`` — a `lua_CFunction` that reads the buffer through
///    raw pointers and holds nothing else — runs under `lua_pcall`, so running out
///    of memory is a status, turned into a ``LuaError/Code/memory`` error.
///
/// Arrays become tables with the elements at `1...n` (pre-sized with
/// `lua_createtable`), `.table` a table with string keys, `.bytes` a Lua string
/// with those bytes, `.double` always a float and `.int` always an integer.
enum RuleValueWriter {
    /// Pushes `value`, leaving exactly one value on the stack on success and none on failure.
    ///
    /// - Parameters:
    ///   - readOnly: Whether every table in the value, nested ones included, is made
    ///     read-only (see ``ReadOnlyTables``).
    ///   - limits: How large the value may be.
    ///   - name: What errors call the value: the root of paths such as `request.tags[2]`.
    ///   - chunkName: The chunk or rule errors are reported for.
    /// - Throws: ``LuaError/Code/conversion`` when the value exceeds `limits` or holds
    ///   `nil` inside a table; ``LuaError/Code/memory`` when the state's memory or
    ///   stack runs out while building it.
    static func push(
        _ value: RuleValue, readOnly: Bool, into state: OpaquePointer, limits: RuleValueLimits = .default,
        name: String = "argument", chunkName: String = "host"
    ) throws(LuaError) {
        var scratch = ScratchBuffer()
        defer { scratch.deallocate() }
        do throws(RuleValueConversionFailure) {
            try encode(value, limits: limits, into: &scratch)
        } catch {
            throw error.luaError(chunkName: chunkName, root: name, verb: "cannot pass", direction: "to Lua")
        }
        let buffer = scratch.base
        try LuaState.reserveStack(3, in: state, chunkName: chunkName, activity: "pass \(name) to Lua")
        jl_pushcfunction(state, build)  // none of these three pushes allocates
        lua_pushlightuserdata(state, buffer)
        lua_pushboolean(state, readOnly ? 1 : 0)
        try ProtectedCall.call(
            in: state, arguments: 2, results: 1, chunkName: chunkName, activity: "pass \(name) to Lua")
    }

    // MARK: - Encoding

    /// Checks `value` against `limits` and encodes it at the start of `scratch`, which
    /// grows as needed; ``decode(_:at:readOnly:)`` builds it in Lua.
    /// - Throws: When the value exceeds `limits` or holds `nil` inside a table.
    static func encode(
        _ value: RuleValue, limits: RuleValueLimits, into scratch: inout ScratchBuffer
    ) throws(RuleValueConversionFailure) {
        var plan = Plan(limits: limits)
        try plan.measure(value, depth: 0)
        scratch.reserve(plan.size)
        var cursor = scratch.base
        encode(value, at: &cursor)
        assert(cursor == scratch.base + plan.size, "the plan measured the encoding wrongly")
    }

    /// The first byte of each encoded value. Scalars carry 8 bytes after it, strings
    /// a length and the bytes, arrays a count and the elements, tables a count and,
    /// for each entry, the key (a length and bytes) and the value.
    private enum Tag: UInt8 {
        case nilValue, falseValue, trueValue, integer, float, string, array, table
    }

    /// Checks a value against the limits and sums up its encoded size.
    private struct Plan {
        let limits: RuleValueLimits
        private(set) var size = 0
        private var count = 0
        private var stringBytes = 0

        init(limits: RuleValueLimits) {
            self.limits = limits
        }

        /// Measures `value`, which is inside `depth` tables.
        mutating func measure(_ value: RuleValue, depth: Int) throws(RuleValueConversionFailure) {
            count += 1
            guard count <= limits.maximumValueCount else { throw tooManyValues }
            switch value {
            case .nil, .bool:
                size += 1
            case .int, .double:
                size += 9
            case .string(let text):
                size += 1
                try addString(length: text.utf8.count)
            case .bytes(let bytes):
                size += 1
                try addString(length: bytes.count)
            case .array(let elements):
                try enterTable(depth: depth, count: elements.count)
                for (offset, element) in elements.enumerated() {
                    do throws(RuleValueConversionFailure) {
                        try measureElement(element, depth: depth + 1)
                    } catch {
                        throw error.prepending(.index(Int64(offset) + 1))
                    }
                }
            case .table(let fields):
                try enterTable(depth: depth, count: fields.count)
                for (key, element) in fields {
                    do throws(RuleValueConversionFailure) {
                        try addString(length: key.utf8.count)
                        try measureElement(element, depth: depth + 1)
                    } catch {
                        throw error.prepending(.field(key))
                    }
                }
            }
        }

        /// Checks a table of `count` entries inside `depth` tables.
        private mutating func enterTable(depth: Int, count entries: Int) throws(RuleValueConversionFailure) {
            guard depth < limits.maximumDepth else {
                throw RuleValueConversionFailure(
                    "tables nest deeper than \(limits.maximumDepth) levels;"
                        + " pass flatter tables or raise RuleValueLimits.maximumDepth")
            }
            // As the reader does: a table whose entries cannot all fit is named itself.
            guard entries <= limits.maximumValueCount - count else { throw tooManyValues }
            size += 1 + 8
        }

        private var tooManyValues: RuleValueConversionFailure {
            RuleValueConversionFailure(
                "there are more than \(limits.maximumValueCount) values in all;"
                    + " pass less data or raise RuleValueLimits.maximumValueCount")
        }

        private mutating func measureElement(_ element: RuleValue, depth: Int) throws(RuleValueConversionFailure) {
            if case .nil = element {
                throw RuleValueConversionFailure(
                    "a Lua table cannot hold nil; leave the key out, or use a placeholder such as false in an array")
            }
            try measure(element, depth: depth)
        }

        /// Counts a string value or key: its length field and its bytes.
        private mutating func addString(length: Int) throws(RuleValueConversionFailure) {
            stringBytes += length
            guard stringBytes <= limits.maximumStringBytes else {
                throw RuleValueConversionFailure(
                    "its strings hold more than \(limits.maximumStringBytes) bytes in all;"
                        + " pass less text or raise RuleValueLimits.maximumStringBytes")
            }
            size += 8 + length
        }
    }

    private static func encode(_ value: RuleValue, at cursor: inout UnsafeMutableRawPointer) {
        switch value {
        case .nil:
            put(.nilValue, at: &cursor)
        case .bool(let flag):
            put(flag ? .trueValue : .falseValue, at: &cursor)
        case .int(let number):
            put(.integer, at: &cursor)
            put(number, at: &cursor)
        case .double(let number):
            put(.float, at: &cursor)
            put(number.bitPattern, at: &cursor)
        case .string(var text):
            put(.string, at: &cursor)
            text.withUTF8 { put(UnsafeRawBufferPointer($0), at: &cursor) }
        case .bytes(let bytes):
            put(.string, at: &cursor)
            bytes.withUnsafeBytes { put($0, at: &cursor) }
        case .array(let elements):
            put(.array, at: &cursor)
            put(elements.count, at: &cursor)
            for element in elements {
                encode(element, at: &cursor)
            }
        case .table(let fields):
            put(.table, at: &cursor)
            put(fields.count, at: &cursor)
            for (var key, element) in fields {
                key.withUTF8 { put(UnsafeRawBufferPointer($0), at: &cursor) }
                encode(element, at: &cursor)
            }
        }
    }

    private static func put(_ tag: Tag, at cursor: inout UnsafeMutableRawPointer) {
        cursor.storeBytes(of: tag.rawValue, as: UInt8.self)
        cursor += 1
    }

    private static func put<Scalar: FixedWidthInteger>(_ scalar: Scalar, at cursor: inout UnsafeMutableRawPointer) {
        cursor.storeBytes(of: scalar, as: Scalar.self)  // unaligned stores are allowed (SE-0349)
        cursor += MemoryLayout<Scalar>.size
    }

    /// A length, then the bytes.
    private static func put(_ bytes: UnsafeRawBufferPointer, at cursor: inout UnsafeMutableRawPointer) {
        put(bytes.count, at: &cursor)
        if let base = bytes.baseAddress, !bytes.isEmpty {
            cursor.copyMemory(from: base, byteCount: bytes.count)
        }
        cursor += bytes.count
    }

    // MARK: - Building (inside Lua)

    /// Arguments: the buffer (light userdata) and whether tables are read-only.
    /// Returns the value. Holds only raw pointers and integers: anything here may raise.
    private static let build: lua_CFunction = { state in
        var cursor = UnsafeRawPointer(lua_touserdata(state, 1).unsafelyUnwrapped)
        let readOnly = lua_toboolean(state, 2) != 0
        lua_settop(state, 0)
        RuleValueWriter.decode(state, at: &cursor, readOnly: readOnly)
        return 1
    }

    /// Pushes the value encoded at `cursor` and moves past it. May raise: call it only
    /// where a `longjmp` skips no Swift reference.
    static func decode(_ state: OpaquePointer?, at cursor: inout UnsafeRawPointer, readOnly: Bool) {
        let tag = Tag(rawValue: cursor.load(as: UInt8.self))
        cursor += 1
        switch tag {
        case .nilValue:
            lua_pushnil(state)
        case .falseValue:
            lua_pushboolean(state, 0)
        case .trueValue:
            lua_pushboolean(state, 1)
        case .integer:
            lua_pushinteger(state, take(Int64.self, at: &cursor))
        case .float:
            lua_pushnumber(state, Double(bitPattern: take(UInt64.self, at: &cursor)))
        case .string:
            pushString(state, at: &cursor)
        case .array:
            let count = take(Int.self, at: &cursor)
            // A table, a child and what making a child read-only needs.
            luaL_checkstack(state, 5, nil)
            lua_createtable(state, Int32(clamping: count), 0)
            for position in 0..<count {
                decode(state, at: &cursor, readOnly: readOnly)
                lua_rawseti(state, -2, lua_Integer(position) + 1)
            }
            if readOnly { ReadOnlyTables.wrapTop(state) }
        case .table:
            let count = take(Int.self, at: &cursor)
            luaL_checkstack(state, 6, nil)
            // Sized once for keys that are strings, which Lua hashes with a seed of its own:
            // no chain to attack, and no rehash, so past the cap on a rule's tables.
            let budget = MemoryBudget.of(state)
            budget?.pointee.hostSizesTable = true
            lua_createtable(state, 0, Int32(clamping: count))
            budget?.pointee.hostSizesTable = false
            for _ in 0..<count {
                pushString(state, at: &cursor)
                decode(state, at: &cursor, readOnly: readOnly)
                lua_rawset(state, -3)
            }
            if readOnly { ReadOnlyTables.wrapTop(state) }
        case nil:
            preconditionFailure("corrupt RuleValue encoding")
        }
    }

    private static func pushString(_ state: OpaquePointer?, at cursor: inout UnsafeRawPointer) {
        let length = take(Int.self, at: &cursor)
        _ = lua_pushlstring(state, cursor.assumingMemoryBound(to: CChar.self), length)
        cursor += length
    }

    private static func take<Scalar: FixedWidthInteger>(_: Scalar.Type, at cursor: inout UnsafeRawPointer) -> Scalar {
        defer { cursor += MemoryLayout<Scalar>.size }
        return cursor.loadUnaligned(as: Scalar.self)
    }
}
