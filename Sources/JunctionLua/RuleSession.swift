package import JunctionCore

extension RuleEngine {
    /// Lends `body` a session that evaluates the bundle's declared functions with `req`
    /// and `ctx` — the way a decider runs rule after rule for one request — as one
    /// decision: every rule it runs shares ``SandboxLimits/decisionInstructions`` and one
    /// allowance of log output.
    ///
    /// `ctx` is converted once per ``ContextSnapshot`` instance and kept while the same
    /// snapshot keeps coming; `req` is a read-only view whose fields are built when a rule
    /// first reads them (see ``RuleSession/setRequest(_:)``). Sessions do not nest.
    ///
    /// - Parameters:
    ///   - context: What rules read as `ctx`.
    ///   - body: Evaluates rules through the session, valid only inside `body`.
    /// - Returns: What `body` returns.
    package func withSession<Result>(context: ContextSnapshot, _ body: (inout RuleSession) -> Result) -> Result {
        var unavailable: LuaError?
        if openUnits == 0 {
            do throws(LuaError) { try state.renewEvaluationThreadIfChanged() } catch { unavailable = error }
        }
        state.frame.open(context: context)
        let decides = state.beginDecision()
        openUnits += 1
        defer {
            openUnits -= 1
            if decides { state.endDecision() }
            state.frame.close()
            if openUnits == 0 { state.collectBetweenUnits() }
        }
        var session = RuleSession(engine: self, unavailable: unavailable)
        return body(&session)
    }
}

/// Evaluates declared functions of one ``RuleEngine`` for one request; see
/// ``RuleEngine/withSession(context:_:)``.
package struct RuleSession {
    private let engine: RuleEngine
    /// Why no rule can run in this session: no evaluation thread could be made.
    private let unavailable: LuaError?

    fileprivate init(engine: RuleEngine, unavailable: LuaError?) {
        self.engine = engine
        self.unavailable = unavailable
    }

    /// Makes `request` what the next evaluations read as `req`. Setting the request they
    /// read already changes nothing; another makes a `req` from before (which a rule
    /// cannot keep anyway) read nothing.
    /// - Parameter request: The request.
    package mutating func setRequest(_ request: RuleRequest) {
        engine.state.frame.setRequest(request)
    }

    /// Calls a declared function with `req` and `ctx`.
    /// - Parameter index: The function's index from ``RuleEngine/declarations``.
    /// - Returns: Its first result and the instructions it ran.
    /// - Throws: `LuaError`: the rule's own error with its file and line, a budget
    ///   exceeded, a result that does not convert; or a context that does not fit the
    ///   value limits.
    package mutating func evaluate(declared index: Int) throws(LuaError) -> RuleResult {
        if let unavailable { throw unavailable }
        return try engine.callDeclared(index, handler: engine.state.frame.arrange())
    }
}
