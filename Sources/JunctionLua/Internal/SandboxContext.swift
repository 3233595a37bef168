internal import CLua

/// Per-state values the C callbacks need, kept behind one stable pointer in the Lua
/// state's extra space. Plain values only: the count hook raises from here, and a
/// `longjmp` must not skip a Swift reference.
struct SandboxContext {
    let limits: SandboxLimits
    /// Work charged to the current evaluation, in instructions: VM instructions in steps
    /// of the interval, plus what host and library functions charged for work done in C
    /// or Swift (``charge(_:_:)``).
    var instructionsUsed = 0
    /// The most work the current evaluation may do: the per-evaluation budget, or less
    /// when the decision it belongs to has less left.
    var evaluationLimit = Int.max
    /// The work the current decision may still do (``SandboxLimits/decisionInstructions``),
    /// or `Int.max` outside a decision.
    var decisionLeft = Int.max
    /// Whether the current evaluation's limit is what its decision has left rather than
    /// the per-evaluation budget: crossing it then ends the decision.
    var limitedByDecision = false
    /// Whether an evaluation runs, so the allocator charges what it grows: what the host
    /// allocates between evaluations (arguments, `ctx`) is not a rule's work.
    var metering = false
    /// Set once memory ran out in the current evaluation (Lua's emergency collection did
    /// not make room): from then on the allocator refuses to grow and the `pcall`/`xpcall`
    /// wrappers re-raise, so no rule learns how much it could allocate.
    var memoryExhausted = false
    /// Set once the budget is spent; from then on every hook call raises again and the
    /// `pcall`/`xpcall` wrappers re-raise.
    var tripped = false
    /// Registry references to the bundle environment and the prelude's `seal`.
    var environment: Int32 = LUA_NOREF
    var seal: Int32 = LUA_NOREF
    /// Registry reference to the metatable of `req` (``RequestUserdata``).
    var requestMetatable: Int32 = LUA_NOREF
    /// The owning `LuaState`, unretained (for `print`).
    var owner: UnsafeMutableRawPointer?
    /// Where the line hook records the lines that ran, when the state records coverage
    /// (owned by the state's ``CoverageLog``); `nil` otherwise.
    var lineRecorder: UnsafeMutablePointer<LineRecorder>?

    init(limits: SandboxLimits) {
        self.limits = limits
    }

    /// The context of `state`.
    @inline(__always)
    static func of(_ state: OpaquePointer?) -> UnsafeMutablePointer<SandboxContext> {
        jl_getextraspace(state).unsafelyUnwrapped
            .load(as: UnsafeMutablePointer<SandboxContext>.self)
    }

    /// The error every budget stop raises.
    static let budgetMessage: StaticString = "instruction budget exceeded"
    /// Lua's own message for a memory error.
    static let memoryMessage: StaticString = "not enough memory"

    /// The work the current evaluation may still do before its budget is spent.
    @inline(__always)
    static func unitsLeft(_ state: OpaquePointer?) -> Int {
        let context = SandboxContext.of(state)
        return max(0, context.pointee.evaluationLimit - context.pointee.instructionsUsed)
    }

    /// Charges `units` of work done outside the VM (bytes copied, elements moved, pattern
    /// steps) to the current evaluation. Returns `false` once the budget is spent: the
    /// caller then lets go of every Swift value and calls ``raiseBudgetExceeded(_:)``.
    @inline(__always)
    static func charge(_ state: OpaquePointer?, _ units: Int) -> Bool {
        let context = SandboxContext.of(state)
        let (sum, overflow) = context.pointee.instructionsUsed.addingReportingOverflow(max(units, 0))
        context.pointee.instructionsUsed = overflow ? Int.max : sum
        if context.pointee.instructionsUsed > context.pointee.evaluationLimit { context.pointee.tripped = true }
        return !context.pointee.tripped
    }

    /// Raises the budget error, which no `pcall` can catch once tripped. Never returns.
    /// Hold no Swift reference when calling it: a Lua error is a `longjmp`.
    static func raiseBudgetExceeded(_ state: OpaquePointer?) -> Int32 {
        SandboxContext.of(state).pointee.tripped = true
        // The position of the rule's line that called the C function, not the function's
        // own (it has none).
        luaL_where(state, HostFunctions.ruleLevel(state))
        jl_pushstring(state, UnsafeRawPointer(budgetMessage.utf8Start).assumingMemoryBound(to: CChar.self))
        lua_concat(state, 2)
        return lua_error(state)
    }

    /// The count hook: charges one interval; once over budget, raises — and keeps
    /// raising on every later call, so no handler can keep running.
    static let countHook: lua_Hook = { state, _ in
        chargeInterval(state)
    }

    /// What a count event does, in whichever hook receives it: charges one interval and
    /// raises once over budget.
    @inline(__always)
    static func chargeInterval(_ state: OpaquePointer?) {
        let context = SandboxContext.of(state)
        context.pointee.instructionsUsed += context.pointee.limits.instructionInterval
        if context.pointee.instructionsUsed > context.pointee.evaluationLimit {
            context.pointee.tripped = true
        }
        if context.pointee.tripped {
            _ = jl_error_string(state, UnsafeRawPointer(budgetMessage.utf8Start).assumingMemoryBound(to: CChar.self))
        }
    }
}
