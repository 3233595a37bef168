import JunctionCore
internal import CLua

extension LuaState {
    /// Runs `call` — which must end in one `lua_pcall` and return its status — under
    /// the instruction budget, and reports the work it did. When the state records
    /// coverage, the lines that run are recorded too.
    ///
    /// Inside a decision (``beginDecision()``) the call may use no more than the decision
    /// has left, and what it used is taken from it — plus one interval: the count hook
    /// starts afresh with every call, so up to an interval of each call's instructions is
    /// never counted, and charging it up front keeps the decision's count an upper bound.
    @inline(__always)
    func budgeted(_ call: () -> Int32) -> (status: Int32, instructions: Int) {
        let context = self.context
        let perCall = context.pointee.limits.instructions
        let interval = context.pointee.limits.instructionInterval
        let budgeted = perCall < Int.max
        let decisionLeft = context.pointee.decisionLeft
        let available = !budgeted || decisionLeft == .max ? Int.max : decisionLeft - interval
        // Outside a decision each evaluation has the whole time backstop to itself.
        if decisionLeft == .max { context.pointee.restartClock() }
        context.pointee.instructionsUsed = 0
        context.pointee.slowCount = 0
        context.pointee.nextClockRead = 0
        context.pointee.evaluationLimit = budgeted ? min(perCall, available) : .max
        context.pointee.limitedByDecision = available < perCall
        // A decision with nothing left fails the call at its first instruction.
        context.pointee.tripped = available <= 0
        context.pointee.stopRecorded = false
        context.pointee.memoryExhausted = false
        context.pointee.hashPartRefused = false
        budget.pointee.hostSizesTable = false
        context.pointee.metering = true
        let status: Int32
        if context.pointee.lineRecorder != nil {
            status = callRecordingLines(call, budgeted: budgeted)
        } else if budgeted {
            lua_sethook(
                handle, SandboxContext.countHook, LUA_MASKCOUNT, available <= 0 ? 1 : context.pointee.countInterval)
            status = call()
            lua_sethook(handle, nil, 0, 0)
        } else {
            status = call()
        }
        context.pointee.metering = false
        let used = context.pointee.instructionsUsed
        if available < .max {
            let spent = used.addingReportingOverflow(interval)
            context.pointee.decisionLeft = spent.overflow ? 0 : max(0, decisionLeft - spent.partialValue)
        }
        return (status, budgeted ? used : 0)
    }

    /// Loads `source` as a text chunk of the bundle, in the bundle's environment, and
    /// runs it under the budget; its results are left above `base` on the stack.
    /// - Returns: The stack index of the message handler (results follow it).
    @discardableResult
    func run(source: String, chunkName: String, results: Int32) throws(LuaError) -> Int32 {
        guard source.utf8.first != LUA_SIGNATURE.utf8.first else {
            throw LuaError(
                code: .binaryChunkRefused, chunkName: chunkName, line: nil,
                message: "refusing a binary (precompiled) chunk; rules must be Lua source text")
        }
        try reserveStack(3, chunkName: chunkName, activity: "run a chunk")
        let handler = lua_gettop(handle) + 1
        jl_pushcfunction(handle, HostFunctions.messageHandler)  // a light C function: cannot raise
        let status = load(source, chunkName: chunkName)
        guard status == LUA_OK else {
            defer { lua_settop(handle, handler - 1) }
            throw error(status: status, chunkName: chunkName)
        }
        if let coverageLog {
            do {
                try registerForCoverage(chunkName: chunkName, in: coverageLog)
            } catch {
                lua_settop(handle, handler - 1)
                throw error
            }
        }
        // _ENV is a Lua chunk's first upvalue: make it the bundle's environment.
        lua_rawgeti(handle, jl_registryindex(), lua_Integer(context.pointee.environment))
        _ = lua_setupvalue(handle, -2, 1)
        let (callStatus, _) = budgeted { jl_pcall(handle, 0, results, handler) }
        guard callStatus == LUA_OK else {
            defer { lua_settop(handle, handler - 1) }
            throw error(status: callStatus, chunkName: chunkName)
        }
        return handler
    }

    /// Runs a chunk and converts what it returns (for tests and tools).
    func evaluate(source: String, chunkName: String, limits: RuleValueLimits = RuleValueLimits()) throws(LuaError)
        -> [RuleValue]
    {
        let base = lua_gettop(handle)
        defer { lua_settop(handle, base) }
        let handler = try run(source: source, chunkName: chunkName, results: LUA_MULTRET)
        var values: [RuleValue] = []
        for index in stride(from: handler + 1, through: lua_gettop(handle), by: 1) {
            var reader = RuleValueReader(state: handle, chunkName: chunkName, limits: limits)
            values.append(try reader.read(at: index))
        }
        return values
    }

    /// What sealing a bundle hands the host.
    struct SealedBundle {
        /// The bundle's global functions, in the order of the `functions` array.
        var names: [String]
        /// Registry reference of the array of global functions.
        var functions: Int32
        /// Registry reference of the array of declared functions (`run`, `when`).
        var callables: Int32
        /// The declarations; their functions index `callables`.
        var declarations: RuleDeclarations
        /// The globals the bundle's functions assign, which fails once sealed (see
        /// ``BytecodeInspector``), one per name and line.
        var globalAssignments: [RuleAnalysis.Use]
    }

    /// Seals the bundle environment (see ``SandboxPrelude``), inspects every function
    /// of the bundle, and returns what the engine calls. A bundle is sealed once.
    func seal() throws(LuaError) -> SealedBundle {
        precondition(context.pointee.seal != LUA_NOREF, "a bundle is sealed once")
        let base = lua_gettop(handle)
        defer { lua_settop(handle, base) }
        try reserveStack(8, chunkName: Self.setupChunkName, activity: "seal the bundle")
        jl_pushcfunction(handle, HostFunctions.messageHandler)
        lua_rawgeti(handle, jl_registryindex(), lua_Integer(context.pointee.seal))
        // → functions, names, reachable, summary, callables
        let (status, _) = budgeted { jl_pcall(handle, 0, 5, base + 1) }
        guard status == LUA_OK else {
            var failure = error(status: status, chunkName: "bundle")
            if failure.code == .runtime {
                failure = LuaError(
                    code: .sharedState, chunkName: failure.chunkName, line: failure.line, message: failure.message)
            }
            throw failure
        }
        // Nothing calls `seal` again: released, it takes the code only loading needed with
        // it. A nil over an existing entry cannot allocate (`luaL_unref` may, in Lua 5.4.0–5.4.2).
        lua_pushnil(handle)
        lua_rawseti(handle, jl_registryindex(), lua_Integer(context.pointee.seal))
        context.pointee.seal = LUA_NOREF
        let (functionsIndex, namesIndex, reachableIndex, summaryIndex) = (base + 2, base + 3, base + 4, base + 5)
        let globalAssignments = try inspectFunctions(at: reachableIndex)
        var names: [String] = []
        let count = lua_rawlen(handle, namesIndex)
        if count > 0 {
            for index in 1...count {
                lua_rawgeti(handle, namesIndex, lua_Integer(index))  // an existing string: no allocation
                names.append(Self.string(at: -1, in: handle))
                jl_pop(handle, 1)
            }
        }
        let declarations = try readDeclarations(at: summaryIndex)
        let callables = try reference(chunkName: "bundle")  // pops the callables on top
        lua_pushvalue(handle, functionsIndex)
        let functions = try reference(chunkName: "bundle")
        return SealedBundle(
            names: names, functions: functions, callables: callables, declarations: declarations,
            globalAssignments: globalAssignments)
    }

    /// Refuses the bundle when a function in the array at `index` assigns to a variable
    /// that outlives one evaluation (see ``BytecodeInspector``).
    /// - Returns: The globals those functions assign, by file and line, without repeats
    ///   (a function made twice while loading is dumped twice).
    private func inspectFunctions(at index: Int32) throws(LuaError) -> [RuleAnalysis.Use] {
        let count = lua_rawlen(handle, index)
        guard count > 0 else { return [] }
        var globalAssignments: [RuleAnalysis.Use] = []
        for position in 1...count {
            lua_rawgeti(handle, index, lua_Integer(position))  // an existing entry: no allocation
            defer { jl_pop(handle, 1) }
            let finding: BytecodeInspector.Finding?
            do {
                finding = try BytecodeInspector.inspectTop(of: handle, globalAssignments: &globalAssignments)
            } catch {
                throw LuaError(
                    code: .sharedState, chunkName: "bundle", line: nil,
                    message: "cannot inspect the compiled rules: this Lua's bytecode format is not Lua 5.4's (\(error))"
                )
            }
            if let finding {
                let chunk =
                    finding.source.hasPrefix("=") || finding.source.hasPrefix("@")
                    ? String(finding.source.dropFirst()) : finding.source
                throw LuaError(
                    code: .sharedState, chunkName: chunk, line: finding.line,
                    message: "the function defined here assigns to \"\(finding.variable)\", a variable outside it "
                        + "that every evaluation shares; rules may not keep state between evaluations — "
                        + "make it a local inside the function")
            }
        }
        return ChunkScanner.unique(globalAssignments)
    }

    /// Pops the value on top of the stack into the registry and returns its reference.
    func reference(chunkName: String) throws(LuaError) -> Int32 {
        try Self.reference(in: handle, chunkName: chunkName)
    }

    /// Pops the value on top of `handle`'s stack into the registry and returns its
    /// reference. `luaL_ref` may allocate, so it runs in a protected call.
    static func reference(in handle: OpaquePointer, chunkName: String) throws(LuaError) -> Int32 {
        jl_pushcfunction(handle, HostFunctions.reference)
        jl_insert(handle, -2)
        try ProtectedCall.call(
            in: handle, arguments: 1, results: 1, chunkName: chunkName, activity: "keep a value in the registry")
        defer { jl_pop(handle, 1) }
        return Int32(lua_tointegerx(handle, -1, nil))
    }

    /// Pushes the frame ``call(function:inArrayAt:handler:first:count:chunkName:limits:)``
    /// calls through: the message handler, then the array of functions the registry
    /// reference `functions` names.
    /// - Returns: The stack slot of the handler; the array is the slot above it.
    @discardableResult
    func pushCallFrame(functions: Int32) throws(LuaError) -> Int32 {
        try reserveStack(2, chunkName: "rule", activity: "call a rule")
        jl_pushcfunction(handle, HostFunctions.messageHandler)
        lua_rawgeti(handle, jl_registryindex(), lua_Integer(functions))  // an existing entry: no allocation
        return lua_gettop(handle) - 1
    }

    /// Calls the function at `index` of the array at stack slot `array` with copies of the
    /// `count` values from `first`, under the budget, with the message handler at
    /// `handler`, and converts its first result. Leaves the stack as it was.
    func call(
        function index: Int, inArrayAt array: Int32, handler: Int32, first: Int32, count: Int32, chunkName: String,
        limits: RuleValueLimits
    ) throws(LuaError) -> (value: RuleValue, instructions: Int) {
        try reserveStack(3 + count, chunkName: chunkName, activity: "call a rule")
        let top = lua_gettop(handle)
        defer { lua_settop(handle, top) }
        lua_rawgeti(handle, array, lua_Integer(index))  // an existing entry: no allocation
        pushCopies(first: first, count: count)
        let (status, instructions) = budgeted { jl_pcall(handle, count, 1, handler) }
        guard status == LUA_OK else {
            let failure = error(status: status, chunkName: chunkName)
            throw placing(failure) { lua_rawgeti(handle, array, lua_Integer(index)) }
        }
        // Most rules let a request pass by returning nothing; a nil needs no reader (which
        // would read it as .nil too: every limit admits one value).
        if lua_type(handle, -1) == LUA_TNIL { return (.nil, instructions) }
        var reader = RuleValueReader(state: handle, chunkName: chunkName, limits: limits)
        return (try reader.read(at: -1), instructions)
    }

    /// `failure` placed at the line of the tail call it came through, or where its function
    /// starts, when it has no line of its own.
    ///
    /// A rule's error is placed at the rule's line by the message handler, which finds the
    /// rule's frame on the stack. A rule that ends with a tail call, as in the usual
    /// `return reject(...)`, has no frame left when the helper raises: Lua reuses it for
    /// the call. The function's own code then tells the line: its one tail call of the
    /// sandbox function the message names (``ChunkScanner/tailCallLines(in:calling:)``). A budget error is placed at the line running when the budget stopped the
    /// rule, unless none was: the heap grew past the budget and Lua raised before anything
    /// read the stack. Then the function the host called, which `push` pushes, still names
    /// its file and the line it starts at, and the message says why that line is shown.
    /// - Parameters:
    ///   - failure: The error of a call.
    ///   - push: Pushes the function that was called.
    /// - Returns: The error, placed when it can be.
    func placing(_ failure: LuaError, function push: () -> Void) -> LuaError {
        guard failure.line == nil,
            failure.code == .runtime || failure.code == .instructionBudget || failure.code.endsDecision,
            lua_checkstack(handle, 1) != 0
        else { return failure }
        push()
        guard lua_type(handle, -1) == LUA_TFUNCTION else {
            jl_pop(handle, 1)
            return failure
        }
        // A sandbox function that raised at its caller's level (`reject(42)`), called as
        // `return reject(42)`: the line of that tail call, when the function has one.
        var tailCallLines: [Int] = []
        if failure.code == .runtime, let callee = Self.raisingFunction(of: failure.message) {
            // A rule may fail this way on every request: what reading its code costs is
            // bounded, and a larger function is placed where it starts.
            var buffer = DumpBuffer(limit: Self.tailCallDumpLimit)
            if withUnsafeMutablePointer(to: &buffer, { lua_dump(handle, DumpBuffer.writer, $0, 0) }) == 0 {
                tailCallLines = ChunkScanner.tailCallLines(in: buffer.contents, calling: callee)
            }
            buffer.release()
        }
        var definition = lua_Debug()
        _ = lua_getinfo(handle, ">S", &definition)  // pops the function
        let source = withUnsafeBytes(of: &definition.short_src) { bytes in
            String(cString: bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        // A C function has no line; the prelude's own functions are not the rule.
        guard definition.linedefined > 0, !SandboxPrelude.isPrelude(source) else {
            return failure
        }
        if tailCallLines.count == 1 {
            return LuaError(code: failure.code, chunkName: source, line: tailCallLines[0], message: failure.message)
        }
        let why =
            failure.code == .runtime
            ? "the error came through a tail call, `return f(...)`, which leaves no line of its own"
            : "the budget ran out where no line of a rule was running, such as while the heap grew"
        return LuaError(
            code: failure.code, chunkName: source, line: Int(definition.linedefined),
            message: failure.message + " (the line where the function starts: \(why))")
    }

    /// The most bytes of a rule's compiled code read to place an error that came through a
    /// tail call (a few thousand lines of rule); a larger rule's error is placed where the
    /// rule starts.
    static let tailCallDumpLimit = 256 * 1024

    /// The sandbox function an error message names first (`redirect` in `redirect(url …)
    /// takes…` or `redirect: params must be a table`, `rawset` in Lua's `bad argument #1 to
    /// 'rawset' (…)`): the one that raised it.
    static func raisingFunction(of message: String) -> String? {
        if message.hasPrefix("bad argument #"), let open = message.firstIndex(of: "'") {
            let rest = message[message.index(after: open)...]
            return rest.firstIndex(of: "'").map { String(rest[..<$0]) }
        }
        let name = message.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        guard !name.isEmpty, name.count < message.count else { return nil }
        let next = message[message.index(message.startIndex, offsetBy: name.count)]
        return next == "(" || next == ":" ? String(name) : nil
    }

    /// Pushes the message-free load of `source` (or the error message).
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

    /// The error for a failed load or call whose error object is on the top of the
    /// stack. After running out of memory the collector runs fully — at once, or, when it
    /// is held, between this unit of work and the next — so the next one starts with what
    /// the failed one held given back.
    func error(status: Int32, chunkName: String) -> LuaError {
        defer {
            if status == LUA_ERRMEM || memoryInUse > memoryLimit / 2 {
                if collector.isHeld {
                    collector.fullCollectionDue = true
                } else {
                    _ = jl_gc(handle, LUA_GCCOLLECT, 0)
                }
            }
        }
        if context.pointee.hashPartRefused {
            return LuaError(
                code: .memory, chunkName: chunkName, line: nil,
                message: "a table may hold at most \(MemoryBudget.maximumHashNodes) keys outside its array part "
                    + "(1, 2, 3, …) while rules run: a larger hash part can take one instruction milliseconds to fill; "
                    + "keep a larger map as an array, or split it into tables of at most that many keys")
        }
        if context.pointee.memoryExhausted {
            return memoryError(chunkName)
        }
        if context.pointee.tripped {
            // The line that was running when the budget stopped the rule, if a stop read it
            // (``SandboxContext/recordStop(_:from:)``); else what the message says.
            var (chunkName, line) = (chunkName, Self.splitPosition(of: errorText(at: -1), chunkName: chunkName).line)
            if context.pointee.stopRecorded {
                chunkName = withUnsafeBytes(of: &context.pointee.stopFrame.short_src) { source in
                    String(cString: source.baseAddress!.assumingMemoryBound(to: CChar.self))
                }
                line = Int(context.pointee.stopFrame.currentline)
            }
            if context.pointee.timedOut {
                return LuaError(
                    code: .timeLimit, chunkName: chunkName, line: line,
                    message: "ran longer than the time limit of \(context.pointee.limits.decisionTime) "
                        + "(SandboxLimits.decisionTime), a backstop for work the instruction count does not see, "
                        + "such as comparing long strings again and again")
            }
            if context.pointee.limitedByDecision {
                return LuaError(
                    code: .decisionBudget, chunkName: chunkName, line: line,
                    message:
                        "the decision's budget of \(context.pointee.limits.decisionInstructions) instructions is spent; "
                        + "every rule a decision runs shares it (SandboxLimits.decisionInstructions)")
            }
            return LuaError(
                code: .instructionBudget, chunkName: chunkName, line: line,
                message: "instruction budget of \(context.pointee.limits.instructions) exceeded; "
                    + "the rule runs too long (a loop that never ends?)")
        }
        switch status {
        case LUA_ERRMEM:
            return memoryError(chunkName)
        case LUA_ERRSYNTAX:
            let (line, message) = Self.splitPosition(of: errorText(at: -1), chunkName: chunkName)
            return LuaError(code: .syntax, chunkName: chunkName, line: line, message: message)
        default:
            // LUA_ERRRUN, or LUA_ERRERR when the message handler itself failed.
            let text = errorText(at: -1)
            var (line, message) = Self.splitPosition(of: text, chunkName: chunkName)
            var chunk = chunkName
            if line == nil, let position = Self.splitAnyPosition(of: text) {
                (chunk, line, message) = (position.chunkName, position.line, position.message)
            }
            if message.hasPrefix("not enough memory") {
                return memoryError(chunk)
            }
            return LuaError(code: .runtime, chunkName: chunk, line: line, message: message)
        }
    }

    private func memoryError(_ chunkName: String) -> LuaError {
        LuaError(
            code: .memory, chunkName: chunkName, line: nil,
            message: "memory budget exceeded: the sandbox may hold at most \(memoryLimit) bytes")
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

    /// Splits `"chunk:line: message"` whatever the chunk — for errors from a call, which
    /// may come from any file of the bundle. Returns `nil` without such a prefix.
    static func splitAnyPosition(of text: String) -> (chunkName: String, line: Int, message: String)? {
        let bytes = Array(text.utf8)
        var index = 0
        while let colon = bytes[index...].firstIndex(of: UInt8(ascii: ":")) {
            var end = colon + 1
            while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
            if end > colon + 1, end + 1 < bytes.count, bytes[end] == UInt8(ascii: ":"),
                bytes[end + 1] == UInt8(ascii: " "),
                colon > 0, let line = Int(String(decoding: bytes[(colon + 1)..<end], as: UTF8.self))
            {
                return (
                    String(decoding: bytes[..<colon], as: UTF8.self), line,
                    String(decoding: bytes[(end + 2)...], as: UTF8.self)
                )
            }
            index = colon + 1
        }
        return nil
    }
}
