internal import CLua

extension LuaState {
    /// Makes every later chunk run and call record the lines it runs (see
    /// ``RuleCoverage``). Call it before running the bundle's sources.
    func startRecordingCoverage() {
        guard coverageLog == nil else { return }
        let log = CoverageLog()
        coverageLog = log
        context.pointee.lineRecorder = log.recorder
    }

    /// What this state recorded; empty when it does not record coverage.
    var coverage: RuleCoverage { coverageLog?.coverage ?? RuleCoverage() }

    /// Forgets the lines recorded so far; the chunks stay registered.
    func resetCoverage() { coverageLog?.clear() }

    /// Registers the chunk just loaded, on top of the stack (left there), with the
    /// coverage log: its executable lines, read from its bytecode, and the address of its
    /// source name. Keeps the chunk's main function for the state's lifetime, so that
    /// address names no other string later.
    func registerForCoverage(chunkName: String, in log: CoverageLog) throws(LuaError) {
        let executableLines: Set<Int>
        do {
            executableLines = try BytecodeInspector.nestedFunctionLines(ofTop: handle)
        } catch {
            throw LuaError(
                code: .runtime, chunkName: chunkName, line: nil,
                message: "cannot read the compiled chunk's line information for coverage: "
                    + "this Lua's bytecode format is not Lua 5.4's (\(error))")
        }
        guard lua_checkstack(handle, 3) != 0 else { throw Self.coverageMemoryError(chunkName) }
        var function = lua_Debug()
        lua_pushvalue(handle, -1)
        _ = lua_getinfo(handle, HostFunctions.cString(">S"), &function)  // pops the copy
        guard let source = function.source else { return }
        lua_pushvalue(handle, -1)
        _ = try reference(chunkName: chunkName)
        log.register(name: chunkName, source: UnsafeRawPointer(source), executableLines: executableLines)
    }

    /// Runs `call` as ``budgeted(_:)`` does, with ``LineRecorder/hook`` in place of the
    /// count hook: it charges the same budget at the same interval, and records lines.
    func budgetedRecordingLines(_ call: () -> Int32) -> (status: Int32, instructions: Int) {
        let limits = context.pointee.limits
        let hasBudget = limits.instructions < Int.max
        lua_sethook(
            handle, LineRecorder.hook, hasBudget ? LUA_MASKCOUNT | LUA_MASKLINE : LUA_MASKLINE,
            hasBudget ? Int32(limits.instructionInterval) : 0)
        let status = call()
        lua_sethook(handle, nil, 0, 0)
        return (status, hasBudget ? context.pointee.instructionsUsed : 0)
    }

    private static func coverageMemoryError(_ chunkName: String) -> LuaError {
        LuaError(
            code: .memory, chunkName: chunkName, line: nil,
            message: "not enough Lua stack to record coverage; the state's memory limit is reached")
    }
}
