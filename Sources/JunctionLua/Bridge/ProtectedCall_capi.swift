internal import CLua

/// Runs host-written C functions under `lua_pcall`, so whatever they raise — an
/// out-of-memory error above all — comes back as a status instead of a `longjmp`
/// through Swift frames or a panic.
enum ProtectedCall {
    /// Calls the function below the `arguments` values on the top of the stack.
    ///
    /// On success the function and its arguments are replaced by `results` values;
    /// on failure they are popped and nothing is left.
    ///
    /// - Parameters:
    ///   - activity: What the call does, for the message: `pass request to Lua`.
    /// - Throws: ``LuaError/Code/memory`` when Lua ran out of memory, else
    ///   ``LuaError/Code/runtime`` with Lua's message.
    static func call(
        in state: OpaquePointer, arguments: Int32, results: Int32, chunkName: String,
        activity: @autoclosure () -> String
    ) throws(LuaError) {
        let status = jl_pcall(state, arguments, results, 0)
        guard status != LUA_OK else { return }
        defer { jl_pop(state, 1) }
        if status == LUA_ERRMEM {
            throw LuaError(
                code: .memory, chunkName: chunkName, line: nil,
                message: "not enough memory to \(activity()) within the state's memory limit;"
                    + " use a smaller value or raise the memory limit")
        }
        throw LuaError(
            code: .runtime, chunkName: chunkName, line: nil,
            message: "could not \(activity()): \(LuaState.errorText(at: -1, in: state))")
    }
}
