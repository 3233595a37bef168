internal import CLua
import JunctionCore
import Logging

/// One `lua_State` with the sandbox applied, and everything that lives as long as it.
///
/// The state finds its context through its extra space (``SandboxContext/of(_:)``), so
/// C callbacks reach host values without globals. Lua states are single-threaded:
/// this class is not `Sendable`.
final class LuaState {
    /// The chunk name of errors raised while building the state.
    static let setupChunkName = "sandbox"

    /// The state's main thread: it builds the sandbox and loads the bundle, and is used
    /// for nothing else; valid until `deinit`.
    let main: OpaquePointer

    /// The thread the state works on: `main` while the bundle loads, then the evaluation
    /// thread (``renewEvaluationThread()``), which every unit of work finds as it was made.
    /// Set only by ``renewEvaluationThread()``.
    var handle: OpaquePointer

    /// The registry slot that keeps the evaluation thread; `LUA_NOREF` before the first.
    var evaluationThread: Int32 = LUA_NOREF

    /// When the collector runs (see ``holdCollector()``).
    struct CollectorPace {
        /// Whether it runs only between units of work.
        var isHeld = false
        /// The heap's size when it last ran.
        var collectedAt = 0
        /// Whether the next pause between units runs a full collection.
        var fullCollectionDue = false
    }
    var collector = CollectorPace()

    /// Receives each line that Lua's `print` would have written to stdout.
    let printHandler: (String) -> Void

    /// Receives `log.info` and `log.warn` lines.
    let logHandler: (Logger.Level, String) -> Void

    /// What rules may still log in the current decision (or while the bundle loads).
    ///
    /// Unchecked, as the dynamic check cost every decision two runtime calls: sound because
    /// a state is used by one thread at a time, and every access (``beginDecision()``,
    /// ``emit(_:level:)``, ``reportDroppedOutput()``) ends before any handler is called.
    @exclusivity(unchecked) var output: OutputAllowance

    /// The allocator's accounting; outlives `main`, because `lua_close` frees through it.
    let budget: UnsafeMutablePointer<MemoryBudget>
    let context: UnsafeMutablePointer<SandboxContext>
    /// The lines recorded for coverage, when on (see ``startRecordingCoverage()``);
    /// released after `deinit` has closed the state.
    var coverageLog: CoverageLog?

    /// The request and the stack slots rules read it through (see ``RequestFrame``).
    let frame: RequestFrame
    /// Where C callbacks put what Swift prepared for them (see ``RequestUserdata``).
    ///
    /// Written from C callbacks that find this instance through the state, so the compiler
    /// cannot prove its accesses exclusive. Unchecked is sound: a state is used by one
    /// thread at a time, and each access stores or reads bytes without calling out.
    @exclusivity(unchecked) var scratch = ScratchBuffer()

    /// Creates a state with `limits`, opens ``SandboxPolicy/libraries``, charges their C
    /// functions' work to the budget (``ChargedCalls``) and runs the ``SandboxPrelude``
    /// (loaded from ``PreludeChunk``).
    ///
    /// - Throws: ``LuaError/Code/memory`` when the memory limit is too small to build the sandbox.
    init(
        limits: SandboxLimits, printHandler: @escaping (String) -> Void,
        logHandler: @escaping (Logger.Level, String) -> Void = { _, _ in }
    ) throws(LuaError) {
        budget = .allocate(capacity: 1)
        budget.initialize(to: MemoryBudget(limit: limits.memoryBytes))
        context = .allocate(capacity: 1)
        context.initialize(to: SandboxContext(limits: limits))
        guard let handle = lua_newstate(MemoryBudget.allocator, budget) else {
            budget.deallocate()
            context.deallocate()
            throw Self.setupMemoryError(limit: limits.memoryBytes)
        }
        self.main = handle
        self.handle = handle
        frame = RequestFrame(handle: handle)
        self.printHandler = printHandler
        self.logHandler = logHandler
        output = OutputAllowance(limits: limits)
        lua_atpanic(handle, HostFunctions.panic)
        jl_getextraspace(handle).unsafelyUnwrapped.storeBytes(
            of: context, as: UnsafeMutablePointer<SandboxContext>.self)
        context.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        budget.pointee.context = context
        // A throw from here on still runs `deinit`, which closes the state.
        try runSetup(HostFunctions.openLibraries)
        try runSetup(ChargedCalls.install)  // before the prelude keeps any original
        try pushPrelude()
        try runSetup(HostFunctions.installPrelude, arguments: 1)
        try runSetup(RequestUserdata.installMetatable)
        // Every evaluation leaves young garbage (request tables, strings) beside a large,
        // long-lived sandbox; generational collection frees the young without re-marking the old.
        _ = jl_gc_generational(handle)
    }

    /// Creates a state with only a memory limit and default budgets.
    convenience init(memoryLimit: Int, printHandler: @escaping (String) -> Void) throws(LuaError) {
        try self.init(limits: SandboxLimits(memoryBytes: memoryLimit), printHandler: printHandler)
    }

    deinit {
        lua_close(main)
        budget.deinitialize(count: 1)
        budget.deallocate()
        context.deinitialize(count: 1)
        context.deallocate()
        scratch.deallocate()
    }

    /// The most bytes the state may hold.
    var memoryLimit: Int { budget.pointee.limit }

    /// The bytes the state holds now, garbage not yet collected included.
    var memoryInUse: Int { Int(jl_gc_count_bytes(handle)) }

    /// The `LuaState` that owns `handle`, for C callbacks. It is alive whenever Lua
    /// code runs, because only its methods run Lua code.
    static func owner(of handle: OpaquePointer?) -> LuaState {
        Unmanaged<LuaState>.fromOpaque(SandboxContext.of(handle).pointee.owner.unsafelyUnwrapped).takeUnretainedValue()
    }

    /// Runs one setup C function inside `lua_pcall`, with no budget (it is our code), on
    /// the `arguments` values on top of the stack, which it consumes.
    private func runSetup(_ function: lua_CFunction, arguments: Int32 = 0) throws(LuaError) {
        try reserveStack(2, chunkName: Self.setupChunkName, activity: "build the sandbox")
        jl_pushcfunction(handle, function)  // a light C function: cannot raise
        jl_insert(handle, -(arguments + 1))
        let status = jl_pcall(handle, arguments, 0, 0)
        guard status == LUA_OK else {
            defer { jl_pop(handle, 1) }
            if status == LUA_ERRMEM { throw Self.setupMemoryError(limit: memoryLimit) }
            throw Self.setupError(errorText(at: -1))
        }
    }

    /// Pushes the prelude as a function, loaded from ``PreludeChunk``.
    private func pushPrelude() throws(LuaError) {
        let chunk: [UInt8]
        switch PreludeChunk.compiled {
        case .success(let bytes): chunk = bytes
        case .failure(let failure): throw Self.setupError(failure.message)
        }
        try reserveStack(1, chunkName: Self.setupChunkName, activity: "build the sandbox")
        // `lua_load` reads inside its own protected call: it cannot raise.
        let status = chunk.withUnsafeBytes { bytes in
            jl_loadbinary(
                handle, bytes.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: CChar.self), bytes.count,
                HostFunctions.cString(SandboxPrelude.chunkName))
        }
        guard status == LUA_OK else {
            defer { jl_pop(handle, 1) }
            if status == LUA_ERRMEM { throw Self.setupMemoryError(limit: memoryLimit) }
            throw Self.setupError(errorText(at: -1))
        }
    }

    private static func setupError(_ message: String) -> LuaError {
        LuaError(
            code: .runtime, chunkName: setupChunkName, line: nil, message: "building the sandbox failed: \(message)")
    }

    private static func setupMemoryError(limit: Int) -> LuaError {
        LuaError(
            code: .memory, chunkName: setupChunkName, line: nil,
            message: "not enough memory to build the sandbox within the \(limit)-byte limit; raise the memory limit")
    }
}
