internal import CLua

extension LuaState {
    /// The globals the sealed bundle's rules can read (see ``GlobalNames``): the keys of
    /// the environment's backing, then those of the sandbox globals behind it (its
    /// `__index`), and the keys of each read-only table among those.
    ///
    /// Reads raw (`lua_next`, string keys only) and creates nothing in Lua, so it cannot
    /// raise; it visits each table once, so its work is bounded by what the bundle holds.
    func globalNames() -> GlobalNames {
        var names = GlobalNames()
        // Enough for three tables nested in each other, each with its backing and a key and value.
        guard lua_checkstack(handle, 24) != 0 else { return names }
        let base = lua_gettop(handle)
        defer { lua_settop(handle, base) }
        lua_rawgeti(handle, jl_registryindex(), lua_Integer(context.pointee.environment))
        let environment = lua_gettop(handle)
        guard lua_type(handle, environment) == LUA_TTABLE else { return names }
        let backing = pushBacking(of: environment)
        eachStringKey(of: backing) { name in
            names.bundle.insert(name)
            if lua_rawequal(handle, -1, environment) != 0 { names.environmentTable = name }
        }
        // The sandbox's globals are the `__index` of the backing's metatable.
        guard lua_getmetatable(handle, backing) != 0 else { return names }
        guard pushRawField("__index", of: lua_gettop(handle)), lua_type(handle, -1) == LUA_TTABLE else { return names }
        let sandbox = pushBacking(of: lua_gettop(handle))
        eachStringKey(of: sandbox) { name in
            names.sandbox.insert(name)
            guard !names.bundle.contains(name), ReadOnlyTables.isReadOnlyTable(handle, at: -1) else { return }
            let library = pushBacking(of: lua_gettop(handle))
            var fields = Set<String>()
            eachStringKey(of: library) { fields.insert($0) }
            names.libraries[name] = fields
        }
        return names
    }

    /// Pushes the backing of the read-only table at `index`, or the table itself when it
    /// is not read-only, and returns its stack slot. Needs two free slots.
    private func pushBacking(of index: Int32) -> Int32 {
        if !ReadOnlyTables.pushBacking(handle, of: index) { lua_pushvalue(handle, index) }
        return lua_gettop(handle)
    }

    /// Pushes the raw field `name` of the table at `table` and returns `true`, or pushes
    /// nothing and returns `false` when it has none. Needs three free slots.
    private func pushRawField(_ name: String, of table: Int32) -> Bool {
        lua_pushnil(handle)
        while lua_next(handle, table) != 0 {  // key, value
            if lua_type(handle, -2) == LUA_TSTRING, Self.string(at: -2, in: handle) == name {
                jl_remove(handle, -2)
                return true
            }
            jl_pop(handle, 1)
        }
        return false
    }

    /// Calls `body` with each string key of the table at `table`, its value on top of the
    /// stack; `body` may push values, which are dropped after it returns.
    private func eachStringKey(of table: Int32, _ body: (String) -> Void) {
        lua_pushnil(handle)
        while lua_next(handle, table) != 0 {  // key, value
            let key = lua_gettop(handle) - 1
            if lua_type(handle, key) == LUA_TSTRING {
                body(Self.string(at: key, in: handle))
            }
            lua_settop(handle, key)
        }
    }
}
