public import JunctionCore
internal import CLua

extension RuleEngine {
    /// Lends `body` a session that evaluates the bundle's declared functions with `req`
    /// and `ctx` — the way a decider runs rule after rule for one request.
    ///
    /// `ctx` is converted once per ``ContextSnapshot`` instance and kept while the same
    /// snapshot keeps coming; `req` is a read-only view whose fields are built when a rule
    /// first reads them (see ``RuleSession/setRequest(_:)``).
    ///
    /// - Parameters:
    ///   - context: What rules read as `ctx`.
    ///   - body: Evaluates rules through the session, valid only inside `body`.
    /// - Returns: What `body` returns.
    public func withSession<Result>(context: ContextSnapshot, _ body: (inout RuleSession) -> Result) -> Result {
        // Sessions on an otherwise empty stack keep `req`, `ctx` and the call frame at its
        // bottom from one to the next (see `LuaState.hasResidentFrame`), so a decision
        // only renumbers `req`; a session inside another use of the stack pushes its own.
        let height = state.stackHeight
        if height == 0 { state.hasResidentFrame = false }
        let resident = height == 0 || (height == LuaState.residentFrameHeight && state.hasResidentFrame)
        let base = resident ? 0 : height
        let decides = state.beginDecision()
        defer {
            if decides { state.endDecision() }
            state.reset(to: resident && state.hasResidentFrame ? LuaState.residentFrameHeight : height)
            state.currentRequest = nil
            state.requestGeneration += 1
        }
        var session = RuleSession(engine: self, base: base, context: context, onResidentFrame: height != base)
        return body(&session)
    }
}

/// Evaluates declared functions of one ``RuleEngine`` for one request; see
/// ``RuleEngine/withSession(context:_:)``.
public struct RuleSession {
    private let engine: RuleEngine
    private let base: Int32
    private let context: ContextSnapshot
    private var contextPushed = false
    private var requestPushed = false
    private var hasRequest = false
    /// Whether the message handler and the declared functions are at `base + 3` and
    /// `base + 4`, pushed once for all of the session's calls.
    private var framePushed = false

    /// `onResidentFrame`: the frame is there already, with `ctx` for
    /// `LuaState.residentContext`.
    fileprivate init(engine: RuleEngine, base: Int32, context: ContextSnapshot, onResidentFrame: Bool) {
        self.engine = engine
        self.base = base
        self.context = context
        framePushed = onResidentFrame
        contextPushed = onResidentFrame && engine.state.residentContext === context
    }

    /// Makes `request` what the next evaluations read as `req`. A `req` from before
    /// (which a rule cannot keep anyway) reads nothing any more. Setting the request
    /// that is already set (the same one, not an equal one) changes nothing.
    /// - Parameter request: The request.
    public mutating func setRequest(_ request: RuleRequest) {
        if hasRequest, engine.state.currentRequest?.isSame(as: request) == true { return }
        engine.state.currentRequest = request
        engine.state.requestGeneration += 1
        requestPushed = false
        hasRequest = true
    }

    /// Calls a declared function with `req` and `ctx`.
    /// - Parameter index: The function's index from ``RuleEngine/declarations``.
    /// - Returns: Its first result and the instructions it ran.
    /// - Throws: `LuaError`: the rule's own error with its file and line, a budget
    ///   exceeded, a result that does not convert; or a context that does not fit the
    ///   value limits.
    public mutating func evaluate(declared index: Int) throws(LuaError) -> RuleResult {
        precondition(hasRequest, "setRequest(_:) comes before evaluate(declared:)")
        if !requestPushed || !contextPushed || !framePushed { try pushArguments() }
        return try engine.callDeclared(index, frame: base + 3, first: base + 1, count: 2)
    }

    /// Leaves the current `req` at `base + 1`, `ctx` at `base + 2` and the call frame at
    /// `base + 3` and `base + 4`; replaces `req` and `ctx` in place when they are there.
    private mutating func pushArguments() throws(LuaError) {
        let state = engine.state
        if !requestPushed {
            try ProtectedCall.reserveStack(3, in: state.handle, chunkName: "req", activity: "pass req to Lua")
            if state.stackHeight == base {
                if state.requestReference == LUA_NOREF {
                    // One `req` userdata per state, made once and reused: each request only
                    // renumbers it and forgets its cached fields.
                    jl_pushcfunction(state.handle, RequestUserdata.push)
                    lua_pushinteger(state.handle, lua_Integer(state.requestGeneration))
                    try ProtectedCall.call(in: state.handle, arguments: 1, results: 1, chunkName: "req", activity: "pass req to Lua")
                    state.requestReference = try state.reference(chunkName: "req")
                }
                lua_rawgeti(state.handle, jl_registryindex(), lua_Integer(state.requestReference))  // an existing entry
            }
            RequestUserdata.renumber(state.handle, at: base + 1, generation: state.requestGeneration)
            requestPushed = true
        }
        if !contextPushed {
            let top = state.stackHeight
            do throws(LuaError) {
                try pushContext(state)
            } catch {
                state.reset(to: top)
                throw error
            }
            if top > base + 1 { jl_replace(state.handle, base + 2) }
            if base == 0 { state.residentContext = context }
            contextPushed = true
        }
        if !framePushed {
            assert(state.stackHeight == base + 2)
            try engine.pushCallFrame()
            framePushed = true
            if base == 0 { state.hasResidentFrame = true }
        }
    }

    /// Pushes `ctx`: the converted table kept for the snapshot, or a new conversion.
    private func pushContext(_ state: LuaState) throws(LuaError) {
        try ProtectedCall.reserveStack(4, in: state.handle, chunkName: "ctx", activity: "pass ctx to Lua")
        if let cached = state.cachedContext, cached.snapshot === context {
            lua_rawgeti(state.handle, jl_registryindex(), lua_Integer(cached.reference))  // an existing entry
            return
        }
        try RuleValueWriter.push(
            .table(context.values), readOnly: true, into: state.handle, limits: engine.valueLimits,
            name: "ctx", chunkName: "ctx")
        lua_pushvalue(state.handle, -1)
        let reference = try state.reference(chunkName: "ctx")
        if let old = state.cachedContext { luaL_unref(state.handle, jl_registryindex(), old.reference) }
        state.cachedContext = (context, reference)
    }
}
