import JunctionCore
import JunctionLua

/// What runs a bundle's declared Lua functions during one decision: a ``RuleSession``
/// lent by the bundle's engine pool, or ``NoDeclaredFunctions`` for a decider without one.
///
/// `DecisionRun` is generic over it rather than taking an optional session, so the
/// session is used in place, never copied into an `Optional` (a copy retains its engine).
protocol DeclaredFunctions {
    /// Sets the request `req` reads from now on. Setting the request already set (the
    /// same one: ``RuleRequest/isIdentical(to:)``) changes nothing, so a caller sets the
    /// request a step should see before each evaluation and keeps no count of its own.
    mutating func setRequest(_ request: RuleRequest)
    /// Calls a declared function with `req` and `ctx`.
    mutating func evaluate(declared index: Int) throws(LuaError) -> RuleResult
}

extension RuleSession: DeclaredFunctions {}

/// A decider's stand-in when no engine runs: every call fails, and the failure is the
/// rule's, as for any other error.
struct NoDeclaredFunctions: DeclaredFunctions {
    mutating func setRequest(_ request: RuleRequest) {}

    mutating func evaluate(declared index: Int) throws(LuaError) -> RuleResult {
        throw LuaError(
            code: .runtime, chunkName: "declared function", line: nil, message: "no rule engine is available")
    }
}
