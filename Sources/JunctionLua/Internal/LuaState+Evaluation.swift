internal import CLua

extension LuaState {
    /// Loads `source` as a text chunk, runs it under `lua_pcall` and converts what it returns.
    ///
    /// The stack is back where it was on every path.
    ///
    /// - Throws: ``LuaError`` for a binary chunk, a syntax, runtime or memory error,
    ///   or a result that does not convert.
    func evaluate(source: String, chunkName: String) throws(LuaError) -> [LuaValue] {
        guard source.utf8.first != LUA_SIGNATURE.utf8.first else {
            throw LuaError(
                code: .binaryChunkRefused, chunkName: chunkName, line: nil,
                message: "refusing a binary (precompiled) chunk; rules must be Lua source text")
        }
        let base = lua_gettop(handle)
        // Drops the handler and the results or the error object. Only `lua_settop`
        // over values this function pushed: nothing to close, so it cannot raise.
        defer { lua_settop(handle, base) }
        guard lua_checkstack(handle, 2) != 0 else {
            throw LuaError(code: .memory, chunkName: chunkName, line: nil, message: outOfMemoryMessage)
        }
        jl_pushcfunction(handle, HostFunctions.messageHandler)  // a light C function: cannot raise
        var status = load(source, chunkName: chunkName)
        if status == LUA_OK {
            status = jl_pcall(handle, 0, LUA_MULTRET, base + 1)
        }
        guard status == LUA_OK else { throw error(status: status, chunkName: chunkName) }

        // Reading values makes no call that can raise; see `LuaValueReader`.
        var values: [LuaValue] = []
        for index in stride(from: base + 2, through: lua_gettop(handle), by: 1) {
            var reader = LuaValueReader(state: handle, chunkName: chunkName, resultNumber: values.count + 1)
            values.append(try reader.read(at: index))
        }
        return values
    }

    /// Pushes the compiled chunk, or the error message when it returns non-zero.
    /// `lua_load` parses inside its own protected call, so it cannot raise.
    private func load(_ source: String, chunkName: String) -> Int32 {
        var source = source
        // "=" makes Lua show the name verbatim in messages: "name:line: message".
        return ("=" + chunkName).withCString { name in
            source.withUTF8 { text in
                text.withMemoryRebound(to: CChar.self) { text in
                    jl_loadtext(handle, text.baseAddress, text.count, name)
                }
            }
        }
    }

    /// The error for a failed load or call whose error object is on the top of the stack.
    private func error(status: Int32, chunkName: String) -> LuaError {
        switch status {
        case LUA_ERRMEM:
            return LuaError(code: .memory, chunkName: chunkName, line: nil, message: outOfMemoryMessage)
        case LUA_ERRSYNTAX:
            let (line, message) = Self.splitPosition(of: errorMessage(at: -1), chunkName: chunkName)
            return LuaError(code: .syntax, chunkName: chunkName, line: line, message: message)
        default:
            // LUA_ERRRUN, or LUA_ERRERR when the message handler itself failed.
            let (line, message) = Self.splitPosition(of: errorMessage(at: -1), chunkName: chunkName)
            return LuaError(code: .runtime, chunkName: chunkName, line: line, message: message)
        }
    }

    private var outOfMemoryMessage: String {
        "not enough memory: the chunk needs more than the sandbox's \(memoryLimit)-byte limit"
    }

    /// The error object at `index` as text, without calling `__tostring`: the message
    /// handler made it a string already, except after a memory error.
    func errorMessage(at index: Int32) -> String {
        guard lua_type(handle, index) == LUA_TSTRING else {
            return "(error object is a \(String(cString: jl_typename(handle, index))) value)"
        }
        var length = 0
        let bytes = lua_tolstring(handle, index, &length)  // a string: no conversion, cannot raise
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    }

    /// Splits `"chunk:line: message"` into line and message when it starts with the
    /// name Lua shows for `chunkName` (the name, cut to `LUA_IDSIZE - 1` bytes).
    static func splitPosition(of text: String, chunkName: String) -> (line: Int?, message: String) {
        let shownName = chunkName.utf8.prefix(Int(LUA_IDSIZE) - 1)
        var rest = text.utf8[...]
        guard rest.starts(with: shownName) else { return (nil, text) }
        rest = rest.dropFirst(shownName.count)
        guard rest.first == UInt8(ascii: ":") else { return (nil, text) }
        rest = rest.dropFirst()
        let digits = rest.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        rest = rest.dropFirst(digits.count)
        guard !digits.isEmpty, rest.starts(with: ": ".utf8),
            let line = Int(String(decoding: digits, as: UTF8.self))
        else { return (nil, text) }
        return (line, String(decoding: rest.dropFirst(2), as: UTF8.self))
    }
}
