internal import CLua
internal import Foundation  // memcmp

/// `pairs` in one order on every device and in every run: numbers ascending, then strings
/// by their bytes, then `false` and `true`, then keys of other kinds (tables, functions)
/// in the order Lua's `next` gives them.
///
/// Lua's own `pairs` follows the table's hash part, whose order depends on the string
/// hashes Lua seeds per state from the clock and addresses — so a rule that returns the
/// first flag `pairs` finds would decide differently on two devices. The iterator walks a
/// sorted array of the table's keys, made when `pairs` is called (charged to the budget:
/// a key an element, and `n·log2 n` comparisons), and reads each value when it gets there,
/// so a field cleared during the loop is skipped as Lua's `next` would skip it.
///
/// Lua may raise (a `longjmp`) wherever it allocates, so the Swift work — describing and
/// sorting the keys — runs where no call can raise: the array it fills is made first,
/// with a slot for every key. It needs nothing of the sandbox: read-only tables, which use
/// it, work in any state.
enum OrderedIteration {
    /// `pairs(t)`: `t`'s `__pairs` if it has one (read-only tables and `req`, which iterate
    /// in this same order), else the ordered iterator over `t`, `t`, `nil`.
    static let pairs: lua_CFunction = { state in
        luaL_checkany(state, 1)
        lua_settop(state, 1)
        if luaL_getmetafield(state, 1, HostFunctions.cString("__pairs")) != LUA_TNIL {
            lua_pushvalue(state, 1)
            jl_call(state, 1, 3)
            return 3
        }
        luaL_checktype(state, 1, LUA_TTABLE)
        pushIterator(state, over: 1)
        lua_pushvalue(state, 1)
        lua_pushnil(state)
        return 3
    }

    /// Pushes an iterator over the table at `index` in the fixed order. May raise: memory,
    /// or the budget when the table has more keys than the evaluation can pay for.
    static func pushIterator(_ state: OpaquePointer?, over index: Int32) {
        let source = lua_absindex(state, index)
        pushOrderedKeys(state, of: source)
        pushIterator(state, keys: lua_gettop(state), over: source)
        jl_remove(state, -2)
    }

    /// Pushes an iterator over the table at `index` that visits the keys of the array at
    /// `keys` (from ``pushOrderedKeys(_:of:)``, perhaps kept from an earlier call: ordering
    /// is charged each time all the same, so what a rule pays does not depend on what ran
    /// before). May raise.
    static func pushIterator(_ state: OpaquePointer?, keys: Int32, over index: Int32) {
        let (keys, source) = (lua_absindex(state, keys), lua_absindex(state, index))
        if !charge(state, cost(of: Int(lua_rawlen(state, keys)))) { _ = SandboxContext.raiseBudgetExceeded(state) }
        luaL_checkstack(state, 3, nil)
        lua_pushvalue(state, keys)
        lua_pushvalue(state, source)
        lua_pushinteger(state, 0)
        lua_pushcclosure(state, step, 3)
    }

    /// Pushes an array of the keys of the table at `index` in the fixed order. May raise
    /// (memory).
    static func pushOrderedKeys(_ state: OpaquePointer?, of index: Int32) {
        let source = lua_absindex(state, index)
        luaL_checkstack(state, 3, nil)
        var count = 0
        lua_pushnil(state)
        while lua_next(state, source) != 0 {
            jl_pop(state, 1)
            count += 1
        }
        // Array slots for every key, made first: filling them cannot raise.
        lua_createtable(state, Int32(clamping: count), 0)
        order(state, source, into: lua_gettop(state), count: count)
    }

    /// What ordering `count` keys is charged: a key an element, and `n·log2 n` comparisons.
    private static func cost(of count: Int) -> Int {
        count + (count > 1 ? count * (Int.bitWidth - (count - 1).leadingZeroBitCount) : 0)
    }

    /// Puts the `count` keys of the table at `source` into the array at `ordered` in the
    /// fixed order. Makes no call that can raise — `lua_next` over a table nothing changes,
    /// reads, stores into slots that exist — so it may hold the Swift buffers it sorts in.
    private static func order(_ state: OpaquePointer?, _ source: Int32, into ordered: Int32, count: Int) {
        guard count > 1 else {
            // No key: nothing to push (a nil pushed here once stayed, and `pairs` over an
            // empty `req.query` returned its table where the iterator goes).
            guard count == 1 else { return }
            lua_pushnil(state)
            if lua_next(state, source) != 0 {  // pops the nil; a key and its value for it
                jl_pop(state, 1)
                lua_rawseti(state, ordered, 1)
            }
            return
        }
        withUnsafeTemporaryAllocation(of: Key.self, capacity: count) { buffer in
            var keys = buffer
            // The keys as the sort compares them; a string's bytes stay alive in the table.
            var position = 0
            lua_pushnil(state)
            while lua_next(state, source) != 0 {
                jl_pop(state, 1)
                keys.initializeElement(at: position, to: Key(state, at: -1, position: Int32(position)))
                position += 1
            }
            keys.sort(by: Key.precedes)
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { rank in
                for (place, key) in keys.enumerated() { rank[Int(key.position)] = Int32(place + 1) }
                // Lua's order again, each key into its place.
                position = 0
                lua_pushnil(state)
                while lua_next(state, source) != 0 {
                    jl_pop(state, 1)
                    lua_pushvalue(state, -1)
                    lua_rawseti(state, ordered, lua_Integer(rank[position]))
                    position += 1
                }
            }
        }
    }

    /// One key of the table being ordered, as the sort compares it.
    private struct Key {
        /// Where the key comes in Lua's order (0-based).
        var position: Int32
        /// Numbers, strings, booleans, the rest.
        var rank: UInt8 = 3
        var isInteger = false
        var integer: Int64 = 0
        var number: Double = 0
        /// A string's bytes, kept alive by the table while the sort runs.
        var bytes: UnsafeRawPointer?
        var length = 0

        /// The key at `index` of the stack. Reads only: cannot raise.
        init(_ state: OpaquePointer?, at index: Int32, position: Int32) {
            self.position = position
            switch lua_type(state, index) {
            case LUA_TNUMBER:
                rank = 0
                if lua_isinteger(state, index) != 0 {
                    isInteger = true
                    integer = lua_tointegerx(state, index, nil)
                } else {
                    number = lua_tonumberx(state, index, nil)
                }
            case LUA_TSTRING:
                rank = 1
                bytes = UnsafeRawPointer(lua_tolstring(state, index, &length))  // a string: not converted
            case LUA_TBOOLEAN:
                rank = 2
                integer = Int64(lua_toboolean(state, index))
            default:
                break
            }
        }

        /// Whether `a` comes before `b`.
        static func precedes(_ a: Key, _ b: Key) -> Bool {
            if a.rank != b.rank { return a.rank < b.rank }
            switch a.rank {
            case 0:
                if a.isInteger, b.isInteger { return a.integer < b.integer }
                let (x, y) = (a.isInteger ? Double(a.integer) : a.number, b.isInteger ? Double(b.integer) : b.number)
                return x != y ? x < y : a.position < b.position
            case 1:
                let shared = min(a.length, b.length)
                let order = shared == 0 ? 0 : memcmp(a.bytes.unsafelyUnwrapped, b.bytes.unsafelyUnwrapped, shared)
                return order != 0 ? order < 0 : a.length < b.length
            case 2:
                return a.integer < b.integer
            default:
                return a.position < b.position
            }
        }
    }

    /// Charges ordering `units` of work to the evaluation, in a sandbox's state; `false`
    /// once its budget is spent. A state without the sandbox (a test's) pays nothing.
    private static func charge(_ state: OpaquePointer?, _ units: Int) -> Bool {
        guard let budget = MemoryBudget.of(state), budget.pointee.context != nil else {
            return true
        }
        return SandboxContext.charge(state, units)
    }

    /// The iterator: upvalue 1 is the ordered keys, 2 the table, 3 how many keys it has
    /// passed. Returns the next key whose value is not nil, and that value.
    private static let step: lua_CFunction = { state in
        let keys = jl_upvalueindex(1)
        let table = jl_upvalueindex(2)
        var position = lua_tointegerx(state, jl_upvalueindex(3), nil)
        let count = lua_Integer(lua_rawlen(state, keys))
        lua_settop(state, 0)
        while position < count {
            position += 1
            _ = lua_rawgeti(state, keys, position)
            lua_pushvalue(state, -1)
            if lua_rawget(state, table) != LUA_TNIL {
                lua_pushinteger(state, position)
                jl_replace(state, jl_upvalueindex(3))
                return 2
            }
            jl_pop(state, 2)
        }
        lua_pushinteger(state, count)
        jl_replace(state, jl_upvalueindex(3))
        lua_pushnil(state)
        return 1
    }
}
