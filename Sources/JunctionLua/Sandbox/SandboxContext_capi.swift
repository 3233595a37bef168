internal import CLua
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// How many instructions the count hook lets run between its calls now: the limits'
    /// interval, or ten once an interval has been slow (see ``checkClock(_:)``).
    var countInterval: Int32
    /// ``SandboxLimits/decisionTime`` in nanoseconds. Times here are plain integers, read
    /// from the thread's CPU clock: a `ContinuousClock.Instant` field would give this struct,
    /// which every charge and count event touches, a layout known only at run time.
    let timeLimit: Int
    /// When the current decision (or evaluation outside one) must end, in nanoseconds of
    /// the thread's CPU clock: `timeLimit` after the first count event, which starts the clock
    /// (a rule that ends within one interval never reads it); 0 until then.
    var deadline = 0
    /// When the count hook last read the clock.
    var lastClockRead = 0
    /// The count at which the hook reads the clock next: every thousand instructions, or
    /// ten once instructions have been slow — whatever the count interval.
    var nextClockRead = 0
    /// Set when the deadline passed: the budget is tripped, and the error says why.
    var timedOut = false
    /// Set once instructions have been slow in the current decision (see ``checkClock(_:)``).
    var slow = false
    /// Instructions the count hook saw since it last charged, once slow: it then runs every
    /// ten instructions to watch the clock, but charges a whole interval at a time, as often
    /// as it would have, so what a rule is charged does not depend on how fast it ran.
    var slowCount = 0
    /// Set once memory ran out in the current evaluation (Lua's emergency collection did
    /// not make room): from then on the allocator refuses to grow and the `pcall`/`xpcall`
    /// wrappers re-raise, so no rule learns how much it could allocate.
    var memoryExhausted = false
    /// Set when a table's hash part would have grown past
    /// ``MemoryBudget/maximumHashNodes``; `memoryExhausted` is set with it.
    var hashPartRefused = false
    /// Set once the budget is spent; from then on every hook call raises again and the
    /// `pcall`/`xpcall` wrappers re-raise.
    var tripped = false
    /// Where the rule was when the spent budget stopped it — the innermost rule frame's
    /// `short_src` and `currentline` —, read by the first stop that raised, so the error
    /// names the line that was running rather than where the function starts. Valid when
    /// `stopRecorded`. Plain C data: it is written where Lua may raise.
    var stopFrame = lua_Debug()
    var stopRecorded = false
    /// Registry references to the bundle environment and the prelude's `seal`.
    var environment: Int32 = LUA_NOREF
    var seal: Int32 = LUA_NOREF
    /// Registry reference to the prelude's `reach`, which a new evaluation thread runs once
    /// (``LuaState/renewEvaluationThread()``).
    var reach: Int32 = LUA_NOREF
    /// Registry reference to the metatable of `req`'s maps (``RequestUserdata``).
    var requestMetatable: Int32 = LUA_NOREF
    /// Registry reference to the metatable of `req` itself, made with it.
    var requestOwnMetatable: Int32 = LUA_NOREF
    /// The owning `LuaState`, unretained (for `print`).
    var owner: UnsafeMutableRawPointer?
    /// Where the line hook records the lines that ran, when the state records coverage
    /// (owned by the state's ``CoverageLog``); `nil` otherwise.
    var lineRecorder: UnsafeMutablePointer<LineRecorder>?

    init(limits: SandboxLimits) {
        self.limits = limits
        countInterval = Int32(limits.instructionInterval)
        let (seconds, attoseconds) = limits.decisionTime.components
        let (whole, overflow) = Int(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
        timeLimit = overflow ? Int.max / 2 : min(whole + Int(attoseconds / 1_000_000_000), Int.max / 2)
    }

    /// Starts the time backstop afresh, at the limits' count interval: for a new decision,
    /// or an evaluation outside one.
    mutating func restartClock() {
        deadline = 0
        timedOut = false
        slow = false
        countInterval = Int32(limits.instructionInterval)
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

    /// The time backstop, read on a count event every ``clockStride`` instructions: starts
    /// the clock on the first, trips the budget once the deadline has passed, and, once a
    /// stride took longer than a millisecond — instructions that slow do work the count
    /// cannot see — reads it every ten instructions, and makes the count hook run that
    /// often too, so the deadline is noticed within ten of them.
    @inline(never)
    static func checkClock(_ state: OpaquePointer?) {
        let context = SandboxContext.of(state)
        var time = timespec()
        // The thread's CPU time, not the wall clock: time the thread waits — preempted,
        // starved by a busy device — is not the rule's work, and must not refuse a good
        // bundle while it loads or runs its tests. A decision runs on one thread.
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        let now = Int(time.tv_sec) &* 1_000_000_000 &+ Int(time.tv_nsec)
        guard context.pointee.deadline != 0 else {
            context.pointee.deadline = now + context.pointee.timeLimit
            context.pointee.lastClockRead = now
            context.pointee.nextClockRead = context.pointee.instructionsUsed + clockStride
            return
        }
        if now > context.pointee.deadline {
            context.pointee.tripped = true
            context.pointee.timedOut = true
            return
        }
        if !context.pointee.slow, now - context.pointee.lastClockRead > 1_000_000 {
            context.pointee.slow = true
            if context.pointee.countInterval > slowInterval {
                context.pointee.countInterval = slowInterval
                // The same hook and mask (the coverage recorder's, or the count hook), counting anew.
                lua_sethook(state, lua_gethook(state), lua_gethookmask(state), slowInterval)
            }
        }
        context.pointee.lastClockRead = now
        context.pointee.nextClockRead =
            context.pointee.instructionsUsed
            + (context.pointee.slow ? Int(slowInterval) : clockStride)
    }

    /// How many instructions run between two readings of the clock.
    static let clockStride = 1_000

    /// The count interval once instructions have been slow.
    static let slowInterval: Int32 = 10

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
        recordStop(state, from: 1)  // level 0 is the C function raising
        // The position of the rule's line that called the C function, not the function's
        // own (it has none).
        luaL_where(state, HostFunctions.ruleLevel(state))
        jl_pushstring(state, HostFunctions.cString(budgetMessage))
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
        if context.pointee.slow {
            chargeSlowly(context, state)
        } else {
            context.pointee.instructionsUsed += Int(context.pointee.countInterval)
            if context.pointee.instructionsUsed > context.pointee.evaluationLimit {
                context.pointee.tripped = true
            } else if context.pointee.instructionsUsed >= context.pointee.nextClockRead {
                checkClock(state)
            }
        }
        if context.pointee.tripped {
            recordStop(state, from: 0)  // in a hook, level 0 is the function running
            _ = jl_error_string(state, UnsafeRawPointer(budgetMessage.utf8Start).assumingMemoryBound(to: CChar.self))
        }
    }

    /// A count event once slow: the clock is read at every one; an interval is charged
    /// whenever the events since the last charge add up to one, which is where the count
    /// hook would have charged it had the rule run fast (it turned slow at one of those).
    @inline(never)
    static func chargeSlowly(_ context: UnsafeMutablePointer<SandboxContext>, _ state: OpaquePointer?) {
        let interval = context.pointee.limits.instructionInterval
        context.pointee.slowCount += Int(context.pointee.countInterval)
        while context.pointee.slowCount >= interval {
            context.pointee.slowCount -= interval
            context.pointee.instructionsUsed += interval
        }
        if context.pointee.instructionsUsed > context.pointee.evaluationLimit {
            context.pointee.tripped = true
        } else {
            checkClock(state)
        }
    }

    /// Records where the rule is (``stopFrame``), unless a stop did already: the innermost
    /// frame from `level` on that runs rule code. Runs once an evaluation, when its budget
    /// stops it, so the count hook stays a few additions until then.
    @inline(never)
    static func recordStop(_ state: OpaquePointer?, from level: Int32) {
        let context = SandboxContext.of(state)
        guard !context.pointee.stopRecorded else { return }
        var frame = lua_Debug()
        guard HostFunctions.ruleFrame(state, from: level, into: &frame) != nil else { return }
        context.pointee.stopFrame = frame
        context.pointee.stopRecorded = true
    }
}
