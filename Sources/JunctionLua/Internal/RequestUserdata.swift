import JunctionCore
internal import CLua

/// `req` in Lua: a full userdata that builds each field from the host's ``RuleRequest``
/// the first time a rule reads it, and caches it in one of its user values.
///
/// A rule that reads `req.path` costs one string; `req.params` is built, read-only,
/// only when read. The userdata holds one integer, the generation of the request it
/// stands for; the state keeps the current request and its generation, so a `req` kept
/// past its evaluation (it cannot be, in a sealed bundle, but defensively) raises instead
/// of reading another request.
///
/// The metatable's `__index`, `__newindex` and `__pairs` are C functions that make every
/// call that can raise only after the Swift work of a field is done and its result is in
/// the state's scratch buffer: a `longjmp` never skips a Swift reference.
enum RequestUserdata {
    /// Creates the shared metatable and keeps it in the registry. Run in `lua_pcall`.
    static let installMetatable: lua_CFunction = { state in
        lua_createtable(state, 0, 5)
        jl_pushcfunction(state, index)
        lua_setfield(state, -2, "__index")
        jl_pushcfunction(state, refuseWrite)
        lua_setfield(state, -2, "__newindex")
        jl_pushcfunction(state, pairs)
        lua_setfield(state, -2, "__pairs")
        jl_pushcfunction(state, describe)
        lua_setfield(state, -2, "__tostring")
        _ = lua_pushstring(state, "the request is read-only")
        lua_setfield(state, -2, "__metatable")
        SandboxContext.of(state).pointee.requestMetatable = luaL_ref(state, jl_registryindex())
        return 0
    }

    /// Pushes a new `req` for the generation given as argument 1. Run in `lua_pcall`.
    static let push: lua_CFunction = { state in
        let generation = Int(lua_tointegerx(state, 1, nil))
        let block = lua_newuserdatauv(state, MemoryLayout<Int>.size, Int32(RequestField.allCases.count)).unsafelyUnwrapped
        block.storeBytes(of: generation, as: Int.self)
        lua_rawgeti(state, jl_registryindex(), lua_Integer(SandboxContext.of(state).pointee.requestMetatable))
        lua_setmetatable(state, -2)
        return 1
    }

    /// What ``prepare(_:field:generation:)`` left in the scratch buffer.
    private enum Prepared {
        case stale
        case nilValue
        case string(UnsafeRawPointer, Int)
        case encoded(UnsafeRawPointer)
        case failure(UnsafeRawPointer, Int)
    }

    /// `req.KEY`: the cached field, or the field built now.
    private static let index: lua_CFunction = { state in
        guard lua_type(state, 2) == LUA_TSTRING else {
            lua_pushnil(state)
            return 1
        }
        var length = 0
        let key = lua_tolstring(state, 2, &length)  // a string: not converted, cannot raise
        guard let field = RequestField(key: UnsafeRawBufferPointer(start: key, count: length)) else {
            lua_pushnil(state)
            return 1
        }
        if lua_getiuservalue(state, 1, field.rawValue) != LUA_TNIL { return 1 }
        jl_pop(state, 1)
        let generation = lua_touserdata(state, 1).unsafelyUnwrapped.load(as: Int.self)
        switch prepare(state, field: field, generation: generation) {
        case .stale:
            return jl_error_string(state, "req may be read only during the call that received it")
        case .failure(let bytes, let count):
            _ = lua_pushlstring(state, bytes.assumingMemoryBound(to: CChar.self), count)
            return lua_error(state)
        case .nilValue:
            return 1  // not cached: nothing to build
        case .string(let bytes, let count):
            _ = lua_pushlstring(state, bytes.assumingMemoryBound(to: CChar.self), count)
        case .encoded(let start):
            var cursor = start
            RuleValueWriter.decode(state, at: &cursor, readOnly: true)
        }
        lua_pushvalue(state, -1)
        _ = lua_setiuservalue(state, 1, field.rawValue)
        return 1
    }

    /// The Swift half of `__index`: finds the state's current request and puts the
    /// field into the scratch buffer. Every Swift value it makes is gone when it returns.
    @inline(never)
    private static func prepare(_ handle: OpaquePointer?, field: RequestField, generation: Int) -> Prepared {
        let owner = LuaState.owner(of: handle)
        guard generation == owner.requestGeneration, let request = owner.currentRequest else { return .stale }
        func text(_ string: String) -> Prepared {
            var string = string
            string.withUTF8 { owner.scratch.store(UnsafeRawBufferPointer($0)) }
            return .string(UnsafeRawPointer(owner.scratch.base), string.utf8.count)
        }
        let value: RuleValue
        switch field {
        case .url: return text(request.url)
        case .scheme: return text(request.scheme)
        case .host: return text(request.host)
        case .path: return text(request.path)
        case .source: return text(request.source.rawValue)
        case .segments: value = .array(request.segments.map(RuleValue.string))
        case .params: value = .table(request.params)
        case .query: value = .table(request.query)
        case .exts: value = .table(request.exts)
        case .route:
            guard let fields = request.routeFields else { return .nilValue }
            value = .table(fields)
        }
        do throws(RuleValueConversionFailure) {
            try RuleValueWriter.encode(value, limits: owner.valueLimits, into: &owner.scratch)
            return .encoded(UnsafeRawPointer(owner.scratch.base))
        } catch {
            var message = error.luaError(chunkName: "req", root: "req.\(field.name)", verb: "cannot pass", direction: "to Lua").message
            message.withUTF8 { owner.scratch.store(UnsafeRawBufferPointer($0)) }
            return .failure(UnsafeRawPointer(owner.scratch.base), message.utf8.count)
        }
    }

    /// `req.KEY = value`: refused.
    private static let refuseWrite: lua_CFunction = { state in
        jl_error_string(state, "req is read-only; return rewrite{ params = { ... } } to change parameters")
    }

    /// `pairs(req)`: every field that has a value, built now.
    private static let pairs: lua_CFunction = { state in
        lua_settop(state, 1)
        lua_createtable(state, 0, Int32(RequestField.allCases.count))  // 2
        for field in RequestField.allCases {
            jl_pushcfunction(state, index)
            lua_pushvalue(state, 1)
            _ = lua_pushstring(state, HostFunctions.cString(field.name))
            jl_call(state, 2, 1)
            lua_setfield(state, 2, HostFunctions.cString(field.name))  // nil leaves no entry
        }
        jl_pushcfunction(state, nextField)
        jl_insert(state, 2)  // next, table
        lua_pushnil(state)
        return 3
    }

    /// The iterator `pairs(req)` returns: `next` over the fields' table.
    private static let nextField: lua_CFunction = { state in
        lua_settop(state, 2)
        if lua_next(state, 1) != 0 { return 2 }
        lua_pushnil(state)
        return 1
    }

    /// `tostring(req)`: `request myapp://...`.
    private static let describe: lua_CFunction = { state in
        lua_settop(state, 1)
        jl_pushcfunction(state, index)
        lua_pushvalue(state, 1)
        _ = lua_pushstring(state, "url")
        jl_call(state, 2, 1)
        _ = lua_pushstring(state, "request ")
        jl_insert(state, -2)
        lua_concat(state, 2)
        return 1
    }
}
