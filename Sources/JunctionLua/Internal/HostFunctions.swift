internal import CLua

/// The C functions the host gives Lua.
///
/// A Lua error is a `longjmp`, which must not skip Swift code that still owns
/// something. So each function here makes every call that can raise before it
/// creates any Swift value that needs releasing, and holds only raw pointers and
/// integers while Lua may raise.
enum HostFunctions {
    /// Runs one ``SandboxPolicy/Step/openLibrary(_:_:)``.
    ///
    /// Arguments: the library's name (light userdata pointing at a C string) and its
    /// `luaopen_` function. Returns nothing.
    static let openLibrary: lua_CFunction = { state in
        let name = lua_touserdata(state, 1).unsafelyUnwrapped.assumingMemoryBound(to: CChar.self)
        // Pushes the library table, which the pcall's zero results then drop.
        luaL_requiref(state, name, lua_tocfunction(state, 2), 1)
        return 0
    }

    /// Runs one ``SandboxPolicy/Step/assign(field:library:function:)``.
    ///
    /// Arguments: the library's global name (light userdata, or `nil` for the
    /// globals), the field (light userdata), the value. Returns nothing.
    static let assignField: lua_CFunction = { state in
        if let library = lua_touserdata(state, 1) {
            lua_getglobal(state, library.assumingMemoryBound(to: CChar.self))
        } else {
            jl_pushglobaltable(state)
        }
        lua_pushvalue(state, 3)
        let field = lua_touserdata(state, 2).unsafelyUnwrapped.assumingMemoryBound(to: CChar.self)
        lua_setfield(state, -2, field)
        return 0
    }

    /// The message handler of every evaluation: turns the error object into a
    /// traceback-free `chunk:line: message` string.
    ///
    /// A string passes through unchanged (Lua already put its position in front). Any
    /// other object is described by its type, never by `tostring`, whose `__tostring`
    /// could raise again or never return; a number keeps its value.
    static let messageHandler: lua_CFunction = { state in
        if lua_type(state, 1) == LUA_TSTRING { return 1 }
        // Level 0 is this handler; find the innermost frame with a line to report.
        var level: Int32 = 1
        var frame = lua_Debug()
        while lua_getstack(state, level, &frame) != 0 {
            _ = lua_getinfo(state, "l", &frame)
            if frame.currentline > 0 { break }
            level += 1
        }
        luaL_where(state, level)  // pushes "chunk:line: ", or "" when no frame has a line
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

    /// `print(...)`: joins its arguments with tabs, as Lua's own `print` does, and
    /// hands the line to the state's print handler instead of writing to stdout.
    static let print: lua_CFunction = { state in
        let count = lua_gettop(state)
        luaL_checkstack(state, 2 * count + 1, nil)
        if count > 0 {
            for index in 1...count {
                if index > 1 { jl_pushstring(state, HostFunctions.cString("\t")) }
                _ = luaL_tolstring(state, index, nil)  // may run `__tostring` and raise
            }
        }
        lua_concat(state, max(2 * count - 1, 0))  // leaves one string, "" for no arguments
        // Nothing below can raise.
        var length = 0
        let bytes = lua_tolstring(state, -1, &length)
        let line = String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
        LuaState.owner(of: state).printHandler(line)
        return 0
    }

    /// The last resort for an error outside any protected call, which would
    /// otherwise `abort()` silently. JunctionLua never makes such a call on purpose.
    static let panic: lua_CFunction = { state in
        let message =
            lua_type(state, -1) == LUA_TSTRING
            ? String(cString: lua_tolstring(state, -1, nil))
            : "(error object is a \(String(cString: jl_typename(state, -1))) value)"
        fatalError("JunctionLua: Lua raised an error outside a protected call: \(message)")
    }

    /// The C string of a literal, with no temporary copy to free.
    private static func cString(_ literal: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
