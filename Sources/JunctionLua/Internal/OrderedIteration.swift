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
/// sorting the keys — runs between calls that cannot raise, in a block of Lua's memory (a
/// userdata on the stack), and holds no Swift reference. It needs nothing of the sandbox:
/// read-only tables, which use it, work in any state.
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
        luaL_checkstack(state, 4, nil)
        // The keys in Lua's order: raising here holds nothing of Swift's.
        lua_createtable(state, 0, 0)
        let keys = lua_gettop(state)
        var count: lua_Integer = 0
        lua_pushnil(state)
        while lua_next(state, source) != 0 {
            jl_pop(state, 1)
            lua_pushvalue(state, -1)
            count += 1
            lua_rawseti(state, keys, count)
        }
        let elements = Int(count)
        let comparisons = elements > 1 ? elements * (Int.bitWidth - (elements - 1).leadingZeroBitCount) : 0
        if !charge(state, elements + comparisons) { _ = SandboxContext.raiseBudgetExceeded(state) }
        // Room to sort in, then the ordered keys with array slots for all.
        let room = lua_newuserdatauv(state, max(elements, 1) * (MemoryLayout<Key>.stride + MemoryLayout<Int32>.stride), 0)
        lua_createtable(state, Int32(clamping: count), 0)
        let ordered = lua_gettop(state)
        if elements > 0 {
            let order = sortedPositions(state, keys: keys, count: elements, in: room.unsafelyUnwrapped)
            for position in 0..<elements {
                // Existing entries into slots made above: neither call allocates.
                lua_rawgeti(state, keys, lua_Integer(order[position]))
                lua_rawseti(state, ordered, lua_Integer(position + 1))
            }
        }
        lua_pushvalue(state, source)
        lua_pushinteger(state, 0)
        lua_pushcclosure(state, step, 3)  // takes the ordered keys; the room stays below, dropped next
        jl_replace(state, keys)  // the iterator where the raw keys were
        lua_settop(state, keys)
    }

    /// One key of the table being ordered, as the sort compares it.
    private struct Key {
        /// Where the key is in the array of raw keys (1-based).
        var position: Int32
        /// Numbers, strings, booleans, the rest.
        var rank: UInt8
        var isInteger: Bool
        var integer: Int64
        var number: Double
        /// A string's bytes, kept alive by the array of raw keys while the sort runs.
        var bytes: UnsafeRawPointer?
        var length: Int

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
        var allocatorData: UnsafeMutableRawPointer?
        _ = lua_getallocf(state, &allocatorData)
        guard let allocatorData, allocatorData.assumingMemoryBound(to: MemoryBudget.self).pointee.context != nil else {
            return true
        }
        return SandboxContext.charge(state, units)
    }

    /// The positions of the raw keys in the fixed order, sorted in `room` (a userdata big
    /// enough for `count` keys and positions). Makes no call that can raise: only reads of
    /// existing entries.
    private static func sortedPositions(
        _ state: OpaquePointer?, keys: Int32, count: Int, in room: UnsafeMutableRawPointer
    ) -> UnsafeMutablePointer<Int32> {
        let described = room.bindMemory(to: Key.self, capacity: count)
        for position in 0..<count {
            _ = lua_rawgeti(state, keys, lua_Integer(position + 1))
            var key = Key(position: Int32(position + 1), rank: 3, isInteger: false, integer: 0, number: 0, bytes: nil, length: 0)
            switch lua_type(state, -1) {
            case LUA_TNUMBER:
                key.rank = 0
                if lua_isinteger(state, -1) != 0 {
                    key.isInteger = true
                    key.integer = lua_tointegerx(state, -1, nil)
                } else {
                    key.number = lua_tonumberx(state, -1, nil)
                }
            case LUA_TSTRING:
                key.rank = 1
                var length = 0
                key.bytes = UnsafeRawPointer(lua_tolstring(state, -1, &length))  // a string: not converted
                key.length = length
            case LUA_TBOOLEAN:
                key.rank = 2
                key.integer = Int64(lua_toboolean(state, -1))
            default:
                break
            }
            jl_pop(state, 1)
            (described + position).initialize(to: key)
        }
        var buffer = UnsafeMutableBufferPointer(start: described, count: count)
        buffer.sort(by: Key.precedes)
        let order = UnsafeMutableRawPointer(described + count).bindMemory(to: Int32.self, capacity: count)
        for position in 0..<count { order[position] = described[position].position }
        return order
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
