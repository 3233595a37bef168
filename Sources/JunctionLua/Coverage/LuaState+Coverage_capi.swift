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
        try reserveStack(3, chunkName: chunkName, activity: "record coverage")
        var function = lua_Debug()
        lua_pushvalue(handle, -1)
        _ = lua_getinfo(handle, HostFunctions.cString(">S"), &function)  // pops the copy
        guard let source = function.source else { return }
        lua_pushvalue(handle, -1)
        _ = try reference(chunkName: chunkName)
        log.register(name: chunkName, source: UnsafeRawPointer(source), executableLines: executableLines)
    }

    /// Runs `call` for ``budgeted(_:)`` with ``LineRecorder/hook`` in place of the count
    /// hook: it charges the same budget at the same interval, and records lines.
    func callRecordingLines(_ call: () -> Int32, budgeted: Bool) -> Int32 {
        let interval = context.pointee.tripped ? 1 : context.pointee.countInterval
        lua_sethook(
            handle, LineRecorder.hook, budgeted ? LUA_MASKCOUNT | LUA_MASKLINE : LUA_MASKLINE, budgeted ? interval : 0)
        let status = call()
        lua_sethook(handle, nil, 0, 0)
        return status
    }
}
