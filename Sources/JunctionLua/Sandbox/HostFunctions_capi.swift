internal import CLua

internal import Foundation  // memcmp, strstr

/// The C functions the host gives Lua.
///
/// A Lua error is a `longjmp`, which must not skip Swift code that still owns
/// something. So each function here makes every call that can raise before it
/// creates any Swift value that needs releasing, and holds only raw pointers and
/// integers while Lua may raise.
enum HostFunctions {
    /// Opens ``SandboxPolicy/libraries``, each with `luaL_requiref`. Run in `lua_pcall`;
    /// straight-line code, so no Swift value is alive when Lua raises.
    static let openLibraries: lua_CFunction = { state in
        let libraries = SandboxPolicy.libraries
        luaL_requiref(state, cString(libraries.0.name), libraries.0.opener, 1)
        luaL_requiref(state, cString(libraries.1.name), libraries.1.opener, 1)
        luaL_requiref(state, cString(libraries.2.name), libraries.2.opener, 1)
        luaL_requiref(state, cString(libraries.3.name), libraries.3.opener, 1)
        luaL_requiref(state, cString(libraries.4.name), libraries.4.opener, 1)
        jl_pop(state, 5)
        return 0
    }

    /// Runs the ``SandboxPrelude`` function (argument 1) with the host's functions and
    /// limits and keeps the bundle environment and `seal` it returns in the registry. Run
    /// in `lua_pcall`; holds only raw pointers and integers, since everything here may raise.
    static let installPrelude: lua_CFunction = { state in
        let context = SandboxContext.of(state)
        lua_settop(state, 1)
        lua_createtable(state, 0, 26)
        setField(state, "stopped", stopped)
        setField(state, "upvalues", upvalues)
        setField(state, "is_c_function", isCFunction)
        setField(state, "raw_getmetatable", rawGetMetatable)
        setField(state, "freeze_in_place", ReadOnlyTables.freezeInPlace)
        setField(state, "read_only", ReadOnlyTables.wrap)
        setField(state, "is_readonly", ReadOnlyTables.isReadOnly)
        setField(state, "print", print)
        setField(state, "caller_position", callerPosition)
        setField(state, "log_info", logInfo)
        setField(state, "log_warn", logWarning)
        setField(state, "tostring", stableToString)
        setField(state, "ordered_pairs", OrderedIteration.pairs)
        setField(state, "rule_position", rulePosition)
        setField(state, "version_compare", RuleHelpers.compareVersions)
        setField(state, "rollout", RuleHelpers.rollout)
        setField(state, "url_encode", RuleHelpers.encode)
        setField(state, "url_decode", RuleHelpers.decode)
        setField(state, "url_parse", RuleHelpers.parse)
        setField(state, "url_build", RuleHelpers.build)
        setField(state, "pattern_find", LuaPatternFunctions.find)
        setField(state, "pattern_match", LuaPatternFunctions.match)
        setField(state, "pattern_gmatch", LuaPatternFunctions.gmatch)
        setField(state, "pattern_gsub", LuaPatternFunctions.gsub)
        SandboxPrelude.addHostFields(state)  // parts: the prelude's other files; verdict: the names of a verdict table
        jl_call(state, 1, 3)  // prelude(host) → env, seal, reach
        context.pointee.reach = luaL_ref(state, jl_registryindex())
        context.pointee.seal = luaL_ref(state, jl_registryindex())
        context.pointee.environment = luaL_ref(state, jl_registryindex())
        // The libraries' tables now back read-only proxies, and the prelude emptied the
        // global table: let go of the registry's references to them, which no rule can
        // reach (`package.loaded`, which `luaL_requiref` made, and the global table, which
        // keeps its size when emptied), so they hold no memory for the state's life.
        lua_pushnil(state)
        lua_setfield(state, jl_registryindex(), cString("_LOADED"))
        lua_createtable(state, 0, 0)
        lua_rawseti(state, jl_registryindex(), lua_Integer(LUA_RIDX_GLOBALS))
        return 0
    }

    /// `table[name] = function` for the table on top of the stack. May raise.
    private static func setField(_ state: OpaquePointer?, _ name: StaticString, _ function: lua_CFunction) {
        jl_pushcfunction(state, function)
        lua_setfield(state, -2, cString(name))
    }

    /// `table[name] = value` for the table on top of the stack. May raise.
    private static func setField(_ state: OpaquePointer?, _ name: StaticString, _ value: Int) {
        lua_pushinteger(state, lua_Integer(value))
        lua_setfield(state, -2, cString(name))
    }

    /// Moves its argument into the registry and returns the reference. Run in `lua_pcall`.
    static let reference: lua_CFunction = { state in
        lua_pushinteger(state, lua_Integer(luaL_ref(state, jl_registryindex())))
        return 1
    }

    /// `caller_position()`: `"chunk:line: "` of the rule code running (the sandbox's own
    /// frames skipped), for declarations to remember where they were made.
    static let callerPosition: lua_CFunction = { state in
        luaL_where(state, ruleLevel(state))
        return 1
    }

    /// `stopped()`: the error that ends the evaluation whatever catches it — the budget's
    /// once it is spent, or Lua's memory error once memory ran out — or nil. Pushing the
    /// memory message allocates nothing (Lua keeps that string for good); the budget's is
    /// short, and a spent budget still lets the heap grow that little.
    static let stopped: lua_CFunction = { state in
        let context = SandboxContext.of(state)
        if context.pointee.memoryExhausted {
            jl_pushstring(state, cString(SandboxContext.memoryMessage))
        } else if context.pointee.tripped {
            jl_pushstring(state, cString(SandboxContext.budgetMessage))
        } else {
            lua_pushnil(state)
        }
        return 1
    }

    /// `upvalues(f)`: every upvalue of `f`, for sealing a bundle. Trusted code only.
    static let upvalues: lua_CFunction = { state in
        var count: Int32 = 0
        while true {
            luaL_checkstack(state, 1, nil)
            guard lua_getupvalue(state, 1, count + 1) != nil else { break }
            count += 1
        }
        return count
    }

    /// `is_c_function(f)`: whether `f` is a C function, which has no bytecode for the
    /// host to inspect. Trusted code only.
    static let isCFunction: lua_CFunction = { state in
        lua_pushboolean(state, lua_iscfunction(state, 1))
        return 1
    }

    /// `raw_getmetatable(t)`: the metatable itself, ignoring `__metatable`. Trusted code only.
    static let rawGetMetatable: lua_CFunction = { state in
        if lua_getmetatable(state, 1) == 0 { lua_pushnil(state) }
        return 1
    }

    /// The message handler of every evaluation: turns the error object into a
    /// traceback-free `chunk:line: message` string.
    ///
    /// A string passes through unchanged (Lua already put its position in front). Any
    /// other object is described by its type, never by `tostring`, whose `__tostring`
    /// could raise again or never return; a number keeps its value.
    static let messageHandler: lua_CFunction = { state in
        if lua_type(state, 1) == LUA_TSTRING {
            placeAtRule(state)
            return 1
        }
        luaL_where(state, ruleLevel(state))  // pushes "chunk:line: ", or "" when no frame has a line
        if lua_type(state, 1) == LUA_TNUMBER {
            lua_pushvalue(state, 1)
            lua_concat(state, 2)
        } else {
            jl_pushstring(state, HostFunctions.cString("(error object is a "))
            jl_pushstring(state, jl_typename(state, 1))
            jl_pushstring(state, HostFunctions.cString(" value)"))
            lua_concat(state, 4)
        }
        return 1
    }

    /// The message handler of the sandbox's `pcall`: an error raised inside the sandbox's
    /// own code names the rule's line instead of the prelude's, so a rule that catches it
    /// never sees where the sandbox is; every other error object is returned as it is.
    static let rulePosition: lua_CFunction = { state in
        lua_settop(state, 1)
        if lua_type(state, 1) == LUA_TSTRING { placeAtRule(state) }
        return 1
    }

    /// When the string on top of the stack starts with a prelude file's position
    /// (`junction/sandbox/rule_api.lua:184: `), replaces that with the position of the
    /// innermost rule code running; leaves any other string alone.
    private static func placeAtRule(_ state: OpaquePointer?) {
        var length = 0
        let message = lua_tolstring(state, -1, &length).unsafelyUnwrapped
        let prefix = SandboxPrelude.shownPrefix
        guard length > prefix.utf8CodeUnitCount,
            memcmp(message, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0,
            let separator = strstr(message + prefix.utf8CodeUnitCount, ": ")
        else { return }
        luaL_where(state, ruleLevel(state))
        jl_pushstring(state, separator + 2)
        lua_concat(state, 2)
        jl_replace(state, -2)
    }

    /// `tostring(v)`, the same on every device and in every run: a table, function or
    /// userdata without `__tostring` is its type's name (or its `__name`), not
    /// `table: 0x55d0c1e2a6b0` — an address would tell a rule about the heap and make its
    /// result differ between devices. Everything else is Lua's own `tostring`.
    static let stableToString: lua_CFunction = { state in
        luaL_checkany(state, 1)
        lua_settop(state, 1)
        pushStableText(state, 1)
        return 1
    }

    /// Pushes the value at `index` as `tostring` shows it (see ``stableToString``). May
    /// raise (a `__tostring` that fails or returns no string).
    static func pushStableText(_ state: OpaquePointer?, _ index: Int32) {
        let index = lua_absindex(state, index)
        switch lua_type(state, index) {
        case LUA_TTABLE, LUA_TFUNCTION, LUA_TUSERDATA, LUA_TLIGHTUSERDATA, LUA_TTHREAD:
            if luaL_getmetafield(state, index, cString("__tostring")) != LUA_TNIL {
                jl_pop(state, 1)
                break
            }
            let name = luaL_getmetafield(state, index, cString("__name"))
            if name == LUA_TSTRING { return }
            if name != LUA_TNIL { jl_pop(state, 1) }  // a __name that is not a string
            jl_pushstring(state, jl_typename(state, index))
            return
        default:
            break
        }
        _ = luaL_tolstring(state, index, nil)
    }

    /// The innermost stack level running rule code with a line to report: level 0 is
    /// the message handler; C functions and the sandbox's own prelude are skipped.
    static func ruleLevel(_ state: OpaquePointer?) -> Int32 {
        var frame = lua_Debug()
        return ruleFrame(state, from: 1, into: &frame) ?? 1
    }

    /// The innermost stack level from `level` on that runs rule code with a line to
    /// report — C functions and the sandbox's own prelude skipped —, its `short_src` and
    /// `currentline` read into `frame`; `nil` when no level does. Reads the stack only:
    /// it neither allocates nor raises.
    static func ruleFrame(_ state: OpaquePointer?, from level: Int32, into frame: inout lua_Debug) -> Int32? {
        var level = level
        while lua_getstack(state, level, &frame) != 0 {
            _ = lua_getinfo(state, "Sl", &frame)
            let inPrelude = withUnsafeBytes(of: &frame.short_src) { source in
                SandboxPrelude.isPrelude(source.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if frame.currentline > 0, !inPrelude { return level }
            level += 1
        }
        return nil
    }

    /// `print(...)`: joins its arguments with tabs, as Lua's own `print` does, and
    /// hands the line to the state's print handler instead of writing to stdout.
    static let print: lua_CFunction = { state in
        guard joinArguments(state) else { return SandboxContext.raiseBudgetExceeded(state) }
        LuaState.owner(of: state).emit(joinedLine(state), level: nil)
        return 0
    }

    /// `log.info(...)`: like `print`, to the host's logger at `info`.
    static let logInfo: lua_CFunction = { state in
        guard joinArguments(state) else { return SandboxContext.raiseBudgetExceeded(state) }
        LuaState.owner(of: state).emit(joinedLine(state), level: .info)
        return 0
    }

    /// `log.warn(...)`: like `print`, to the host's logger at `warning`.
    static let logWarning: lua_CFunction = { state in
        guard joinArguments(state) else { return SandboxContext.raiseBudgetExceeded(state) }
        LuaState.owner(of: state).emit(joinedLine(state), level: .warning)
        return 0
    }

    /// Pushes the arguments converted with `tostring` and joined with tabs, as Lua's
    /// `print` does, charging the bytes joined to the budget: the string arguments' before
    /// joining, the rest after. Returns `false` once that is more than is left. Everything
    /// that can raise runs here, before the caller makes a Swift string of the line.
    private static func joinArguments(_ state: OpaquePointer?) -> Bool {
        let count = lua_gettop(state)
        var prepaid = 0
        for index in stride(from: 1, through: count, by: 1) where lua_type(state, index) == LUA_TSTRING {
            prepaid = WorkCost.sum(prepaid, Int(lua_rawlen(state, index)))
        }
        guard SandboxContext.charge(state, WorkCost.bytes(prepaid)) else { return false }
        luaL_checkstack(state, 2 * count + 1, nil)
        if count > 0 {
            for index in 1...count {
                if index > 1 { jl_pushstring(state, HostFunctions.cString("\t")) }
                pushStableText(state, index)  // may run `__tostring` and raise
            }
        }
        lua_concat(state, max(2 * count - 1, 0))  // leaves one string, "" for no arguments
        return SandboxContext.charge(state, WorkCost.bytes(Int(lua_rawlen(state, -1)) - prepaid))
    }

    /// The line ``joinArguments(_:)`` left on top of the stack. Cannot raise.
    private static func joinedLine(_ state: OpaquePointer?) -> String {
        LuaState.string(at: -1, in: state)
    }

    /// The last resort for an error outside any protected call, which would
    /// otherwise `abort()` silently. JunctionLua never makes such a call on purpose.
    static let panic: lua_CFunction = { state in
        let message = LuaState.errorText(at: -1, in: state)
        fatalError("JunctionLua: Lua raised an error outside a protected call: \(message)")
    }

    /// The C string of a literal, with no temporary copy to free.
    static func cString(_ literal: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
