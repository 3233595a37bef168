internal import CLua

extension LuaState {
    /// Where the code of each declared function is (``RuleDeclarations``' `run` and `when`
    /// indices), for those that are Lua functions written inside a function of one of
    /// `files`: a chunk's main function, a C function and a function of a chunk with
    /// another name have none.
    ///
    /// Reads each function's debug information (`lua_getinfo`), which allocates nothing
    /// and cannot raise; a chunk name is read only when it is no longer than the longest
    /// of `files`, so a long name a rule gave `load` costs nothing.
    func declaredFunctionSpans(files: Set<String>) -> [Int: FunctionSpan] {
        guard frame.declaredFunctions != LUA_NOREF, lua_checkstack(handle, 2) != 0 else { return [:] }
        let base = lua_gettop(handle)
        defer { lua_settop(handle, base) }
        lua_rawgeti(handle, jl_registryindex(), lua_Integer(frame.declaredFunctions))  // an existing entry
        let array = lua_gettop(handle)
        guard lua_type(handle, array) == LUA_TTABLE else { return [:] }
        let longest = files.map(\.utf8.count).max() ?? 0
        var spans: [Int: FunctionSpan] = [:]
        let count = lua_rawlen(handle, array)
        guard count > 0 else { return [:] }
        for index in 1...count {
            lua_rawgeti(handle, array, lua_Integer(index))  // an existing entry: no allocation
            guard lua_type(handle, -1) == LUA_TFUNCTION else {
                jl_pop(handle, 1)
                continue
            }
            var info = lua_Debug()
            _ = lua_getinfo(handle, ">S", &info)  // pops the function
            // "=NAME", the engine's chunk name for a file (`LuaState.run`).
            guard let what = info.what, String(cString: what) == "Lua", let source = info.source,
                info.srclen >= 1, info.srclen <= longest + 1, source.pointee == CChar(UInt8(ascii: "="))
            else { continue }
            let file = String(
                decoding: UnsafeRawBufferPointer(start: source + 1, count: info.srclen - 1), as: UTF8.self)
            guard files.contains(file) else { continue }
            spans[Int(index)] = FunctionSpan(
                file: file, lineDefined: Int(info.linedefined), lastLineDefined: Int(info.lastlinedefined))
        }
        return spans
    }
}
