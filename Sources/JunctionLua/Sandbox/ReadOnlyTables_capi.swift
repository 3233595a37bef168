internal import CLua

/// Tables that Lua code can read but not change.
///
/// A read-only table is an empty *proxy* whose metatable points at a *backing*
/// table holding the fields:
///
///     {
///       __index = backing,            -- reads: the VM follows a table natively
///       __newindex = denyWrite,       -- "attempt to modify a read-only table (field 'k')"
///       __len = length,               -- #backing, raw
///       __pairs = pairs,              -- an iterator closure over backing, state = the proxy
///       __metatable = false,          -- getmetatable(t) == false; setmetatable(t, …) fails
///       [<light userdata backingKey>] = backing,  -- marks the table as ours
///     }
///
/// So `t.x`, `t[i]`, `#t`, `ipairs(t)`, `pairs(t)`, `table.concat(t)` and
/// `table.unpack(t)` work; assignment, `table.insert`, `table.remove`,
/// `table.sort` and `setmetatable` raise; and the backing is never handed to Lua
/// code (`pairs` returns a closure that holds it, not the table itself).
///
/// The raw functions see the empty proxy: `rawget(t, k)` and `next(t)` give `nil`
/// and `rawlen(t)` gives 0. **`rawset(t, k, v)` succeeds in plain Lua** and would
/// shadow the backing for `k`; the sandbox must replace `rawset` with a version
/// that refuses tables for which ``isReadOnlyTable(_:at:)`` holds.
///
/// Everything here that allocates runs inside Lua — as a `lua_CFunction` called by
/// Lua code or by another one under `lua_pcall` — and holds only raw pointers and
/// integers, so a Lua error (a `longjmp`) skips no Swift cleanup. The only
/// functions safe to call from Swift outside Lua are ``isReadOnlyTable(_:at:)``,
/// ``pushBacking(_:of:)`` and ``freeze(tableAt:deep:in:chunkName:)``. Lua code (the
/// sandbox prelude) gets ``freezeInPlace``, ``wrap`` and ``isReadOnly``.
enum ReadOnlyTables {
    /// The metatable key of the backing table.
    private static let backingKeyAddress = LuaAddressKey()

    /// The operator metamethods a frozen table keeps from its old metatable: each
    /// receives the table itself, never its backing. `__gc` and `__mode` are left
    /// out, and `__index`, `__newindex`, `__len`, `__pairs` and `__metatable` are ours.
    /// NUL-separated, so it can be walked without a Swift array.
    private static let keptMetamethods: StaticString = """
        __call\0__tostring\0__eq\0__lt\0__le\0__concat\0__unm\0__add\0__sub\0__mul\0__div\0__mod\0__pow\0\
        __idiv\0__band\0__bor\0__bxor\0__shl\0__shr\0__bnot\0__close\0__name\0
        """

    // MARK: - Non-raising queries (safe from Swift)

    /// Whether the value at `index` is a read-only table made here. Never raises;
    /// needs two free stack slots and leaves the stack as it was.
    static func isReadOnlyTable(_ state: OpaquePointer?, at index: Int32) -> Bool {
        guard lua_getmetatable(state, index) != 0 else { return false }
        defer { jl_pop(state, 2) }
        return lua_rawgetp(state, -1, backingKey) == LUA_TTABLE
    }

    /// Pushes the backing of the read-only table at `index` and returns `true`, or
    /// pushes nothing and returns `false` for any other value. Never raises; needs
    /// two free stack slots.
    static func pushBacking(_ state: OpaquePointer?, of index: Int32) -> Bool {
        guard lua_getmetatable(state, index) != 0 else { return false }
        guard lua_rawgetp(state, -1, backingKey) == LUA_TTABLE else {
            jl_pop(state, 2)
            return false
        }
        jl_remove(state, -2)
        return true
    }

    /// `is_readonly(v)`: whether `v` is a read-only table made here. Never raises.
    static let isReadOnly: lua_CFunction = { state in
        lua_settop(state, 1)
        lua_pushboolean(state, ReadOnlyTables.isReadOnlyTable(state, at: 1) ? 1 : 0)
        return 1
    }

    // MARK: - Building (inside Lua only)

    /// Replaces the table on the top of the stack with a read-only proxy for it.
    /// Allocates, so it may raise: call it only from a `lua_CFunction`.
    static func wrapTop(_ state: OpaquePointer?) {
        let backing = lua_gettop(state)
        lua_createtable(state, 0, 0)
        pushMetatable(state, backing: backing)
        lua_setmetatable(state, -2)
        jl_replace(state, backing)
    }

    /// `freeze(t [, deep])`: makes `t` itself read-only and returns it.
    ///
    /// Moves every raw field of `t` into a new backing table, clears `t` and gives
    /// it the read-only metatable, so every existing reference to `t` now sees it
    /// read-only. When `t` had a metatable, its `__index` keeps working — a table
    /// becomes the backing's `__index`; a function is called with `t` (never with
    /// the backing) for keys the backing lacks — and its operator metamethods
    /// (``keptMetamethods``) move to the new metatable. With `deep` true, every
    /// table reachable through the values of `t` is frozen too (keys are not;
    /// nesting is bounded by Lua's C-call limit). Freezing a read-only table does nothing.
    static let freezeInPlace: lua_CFunction = { state in
        luaL_checktype(state, 1, LUA_TTABLE)
        let deep = lua_toboolean(state, 2) != 0
        lua_settop(state, 1)
        if ReadOnlyTables.isReadOnlyTable(state, at: 1) { return 1 }
        if lua_getmetatable(state, 1) == 0 { lua_pushnil(state) }  // 2: the old metatable, or nil
        lua_createtable(state, Int32(clamping: lua_rawlen(state, 1)), 0)  // 3: the backing
        ReadOnlyTables.pushMetatable(state, backing: 3)  // 4: the new metatable
        // Before the fields move: the old metatable may be `t` itself.
        if lua_type(state, 2) == LUA_TTABLE {
            ReadOnlyTables.inherit(state, from: 2, backing: 3, metatable: 4)
        }
        lua_pushnil(state)
        while lua_next(state, 1) != 0 {  // ..., key, value
            lua_pushvalue(state, -2)
            jl_insert(state, -2)  // ..., key, key, value
            lua_rawset(state, 3)  // ..., key
            lua_pushvalue(state, -1)
            lua_pushnil(state)
            lua_rawset(state, 1)  // clearing a field `lua_next` returned is allowed mid-traversal
        }
        lua_pushvalue(state, 4)
        lua_setmetatable(state, 1)
        if deep { ReadOnlyTables.freezeValues(state, of: 3) }
        lua_settop(state, 1)
        return 1
    }

    /// `read_only(t)`: a new read-only proxy whose backing is `t` itself, for a table the
    /// caller built and keeps no other reference to. Unlike ``freezeInPlace`` it moves no
    /// field and leaves no emptied table behind; `t`'s metatable, if any, is not carried
    /// over. Trusted code only (the sandbox prelude).
    static let wrap: lua_CFunction = { state in
        luaL_checktype(state, 1, LUA_TTABLE)
        lua_settop(state, 1)
        ReadOnlyTables.wrapTop(state)
        return 1
    }

    // MARK: - Host entry point

    /// Freezes the table at `index` in place (see ``freezeInPlace``) under
    /// `lua_pcall`; the stack is unchanged afterwards.
    ///
    /// - Throws: ``LuaError/Code/memory`` when Lua runs out of memory,
    ///   ``LuaError/Code/runtime`` when the value is not a table or tables nest too
    ///   deeply for `deep`.
    static func freeze(tableAt index: Int32, deep: Bool, in state: OpaquePointer, chunkName: String)
        throws(LuaError)
    {
        let table = lua_absindex(state, index)
        try LuaState.reserveStack(3, in: state, chunkName: chunkName, activity: "freeze a table")
        jl_pushcfunction(state, freezeInPlace)
        lua_pushvalue(state, table)
        lua_pushboolean(state, deep ? 1 : 0)
        try ProtectedCall.call(
            in: state, arguments: 2, results: 0, chunkName: chunkName, activity: "freeze a table")
    }

    // MARK: - Metamethods

    /// `__newindex`: refuses every write, naming the key.
    private static let denyWrite: lua_CFunction = { state in
        ReadOnlyTables.pushPosition(state)
        jl_pushstring(state, HostFunctions.cString("attempt to modify a read-only table ("))
        switch lua_type(state, 2) {
        case LUA_TSTRING:
            jl_pushstring(state, HostFunctions.cString("field '"))
            lua_pushvalue(state, 2)
            jl_pushstring(state, HostFunctions.cString("')"))
        case LUA_TNUMBER:
            jl_pushstring(state, HostFunctions.cString("index "))
            lua_pushvalue(state, 2)  // `lua_concat` renders the number
            jl_pushstring(state, HostFunctions.cString(")"))
        default:
            jl_pushstring(state, HostFunctions.cString("a "))
            jl_pushstring(state, jl_typename(state, 2))
            jl_pushstring(state, HostFunctions.cString(" key)"))
        }
        lua_concat(state, 5)
        return lua_error(state)
    }

    /// `__len`: the border of the backing, raw.
    private static let length: lua_CFunction = { state in
        guard ReadOnlyTables.pushBacking(state, of: 1) else { return ReadOnlyTables.refuseForeignTable(state) }
        lua_pushinteger(state, lua_Integer(truncatingIfNeeded: lua_rawlen(state, -1)))
        return 1
    }

    /// `__pairs`: the backing's fields in ``OrderedIteration``'s fixed order, the proxy,
    /// and `nil`. A read-only table never changes, so its ordered keys are made once and
    /// kept in its metatable, where no rule reaches them.
    private static let pairs: lua_CFunction = { state in
        lua_settop(state, 1)
        guard ReadOnlyTables.pushBacking(state, of: 1), lua_getmetatable(state, 1) != 0 else {  // 2, 3
            return ReadOnlyTables.refuseForeignTable(state)
        }
        if lua_rawgetp(state, 3, orderKey) != LUA_TTABLE {  // 4
            jl_pop(state, 1)
            MemoryBudget.unmetered(state) {
                OrderedIteration.pushOrderedKeys(state, of: 2)
                lua_pushvalue(state, -1)
                lua_rawsetp(state, 3, orderKey)
            }
        }
        OrderedIteration.pushIterator(state, keys: 4, over: 2)
        lua_pushvalue(state, 1)
        lua_pushnil(state)
        return 3
    }

    /// The metatable key of a read-only table's ordered keys.
    private static let orderKeyAddress = LuaAddressKey()
    private static var orderKey: UnsafeRawPointer { orderKeyAddress.address }

    /// `__index` of a frozen table whose old `__index` was a function: upvalue 1 is
    /// the backing, upvalue 2 the old function, which is called with the proxy.
    private static let indexThrough: lua_CFunction = { state in
        lua_settop(state, 2)
        lua_pushvalue(state, 2)
        if lua_rawget(state, jl_upvalueindex(1)) != LUA_TNIL { return 1 }
        jl_pop(state, 1)
        lua_pushvalue(state, jl_upvalueindex(2))
        jl_insert(state, 1)  // function, proxy, key
        jl_call(state, 2, 1)
        return 1
    }

    // MARK: - Helpers (inside Lua only)

    /// Pushes the read-only metatable for the backing at the absolute index `backing`.
    private static func pushMetatable(_ state: OpaquePointer?, backing: Int32) {
        lua_createtable(state, 0, 6)
        lua_pushvalue(state, backing)
        lua_setfield(state, -2, HostFunctions.cString("__index"))
        jl_pushcfunction(state, denyWrite)
        lua_setfield(state, -2, HostFunctions.cString("__newindex"))
        jl_pushcfunction(state, length)
        lua_setfield(state, -2, HostFunctions.cString("__len"))
        jl_pushcfunction(state, pairs)
        lua_setfield(state, -2, HostFunctions.cString("__pairs"))
        lua_pushboolean(state, 0)
        lua_setfield(state, -2, HostFunctions.cString("__metatable"))
        lua_pushvalue(state, backing)
        lua_rawsetp(state, -2, backingKey)
    }

    /// Carries what still makes sense of the old metatable at `old` over to a
    /// frozen table: its `__index` and its operator metamethods.
    private static func inherit(_ state: OpaquePointer?, from old: Int32, backing: Int32, metatable: Int32) {
        jl_pushstring(state, HostFunctions.cString("__index"))
        switch lua_rawget(state, old) {
        case LUA_TNIL:
            jl_pop(state, 1)
        case LUA_TFUNCTION:
            // Called with the backing as `self`, the function could change it.
            lua_pushvalue(state, backing)
            jl_insert(state, -2)
            lua_pushcclosure(state, indexThrough, 2)
            lua_setfield(state, metatable, HostFunctions.cString("__index"))
        default:
            // The VM follows a table (or an indexable value) without passing the backing anywhere.
            lua_createtable(state, 0, 1)
            jl_insert(state, -2)
            lua_setfield(state, -2, HostFunctions.cString("__index"))
            lua_setmetatable(state, backing)
        }
        let names = UnsafeRawPointer(keptMetamethods.utf8Start).assumingMemoryBound(to: CChar.self)
        let end = names + keptMetamethods.utf8CodeUnitCount
        var name = names
        while name < end {
            jl_pushstring(state, name)
            lua_pushvalue(state, -1)
            if lua_rawget(state, old) != LUA_TNIL {
                lua_rawset(state, metatable)
            } else {
                jl_pop(state, 2)
            }
            while name.pointee != 0 { name += 1 }
            name += 1
        }
    }

    /// Freezes, deeply, every table among the values of the table at `table`.
    private static func freezeValues(_ state: OpaquePointer?, of table: Int32) {
        lua_pushnil(state)
        while lua_next(state, table) != 0 {  // ..., key, value
            if lua_type(state, -1) == LUA_TTABLE, !isReadOnlyTable(state, at: -1) {
                jl_pushcfunction(state, freezeInPlace)
                jl_insert(state, -2)
                lua_pushboolean(state, 1)
                jl_call(state, 2, 0)  // nesting is bounded by Lua's C-call limit
            } else {
                jl_pop(state, 1)
            }
        }
    }

    /// Pushes `chunk:line: ` of the innermost Lua function with a line (`table.insert`
    /// has none), or `""`.
    private static func pushPosition(_ state: OpaquePointer?) {
        var level: Int32 = 1
        var frame = lua_Debug()
        while lua_getstack(state, level, &frame) != 0 {
            _ = lua_getinfo(state, HostFunctions.cString("l"), &frame)
            if frame.currentline > 0 { break }
            level += 1
        }
        luaL_where(state, level)
    }

    /// Raises for a metamethod called on a table that is not ours, which only
    /// happens if its metatable was reached some other way.
    private static func refuseForeignTable(_ state: OpaquePointer?) -> Int32 {
        jl_error_string(state, HostFunctions.cString("not a read-only table"))
    }

    private static var backingKey: UnsafeRawPointer { backingKeyAddress.address }
}
