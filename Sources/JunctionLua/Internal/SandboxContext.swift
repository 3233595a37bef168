internal import CLua

/// Per-state values the C callbacks need, kept behind one stable pointer in the Lua
/// state's extra space. Plain values only: the count hook raises from here, and a
/// `longjmp` must not skip a Swift reference.
struct SandboxContext {
    let limits: SandboxLimits
    /// Instructions counted in the current evaluation, in steps of the interval.
    var instructionsUsed = 0
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
        if context.pointee.instructionsUsed > context.pointee.limits.instructions {
            context.pointee.tripped = true
        }
        if context.pointee.tripped {
            _ = jl_error_string(state, UnsafeRawPointer(budgetMessage.utf8Start).assumingMemoryBound(to: CChar.self))
        }
    }
}
