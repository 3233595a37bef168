internal import CLua

/// One `lua_State` with the sandbox applied, and everything that lives as long as it.
///
/// The state finds its owner through its extra space (``owner(of:)``), so C
/// callbacks reach host context without globals. Lua states are single-threaded:
/// this class is not `Sendable`.
final class LuaState {
    /// The chunk name of errors raised while building the state.
    static let setupChunkName = "sandbox"

    /// The `lua_State*`; valid until `deinit`.
    let handle: OpaquePointer

    /// Receives each line that Lua's `print` would have written to stdout.
    let printHandler: (String) -> Void

    /// The allocator's accounting; outlives `handle`, because `lua_close` frees through it.
    private let budget: UnsafeMutablePointer<MemoryBudget>

    /// Creates a state whose heap may not exceed `memoryLimit` bytes and applies
    /// ``SandboxPolicy/steps``.
    ///
    /// - Throws: ``LuaError/Code/memory`` when `memoryLimit` is too small to open the libraries.
    init(memoryLimit: Int, printHandler: @escaping (String) -> Void) throws(LuaError) {
        budget = .allocate(capacity: 1)
        budget.initialize(to: MemoryBudget(limit: memoryLimit))
        guard let handle = lua_newstate(MemoryBudget.allocator, budget) else {
            budget.deallocate()
            throw Self.setupMemoryError(limit: memoryLimit)
        }
        self.handle = handle
        self.printHandler = printHandler
        lua_atpanic(handle, HostFunctions.panic)
        jl_getextraspace(handle).unsafelyUnwrapped.storeBytes(
            of: Unmanaged.passUnretained(self).toOpaque(), as: UnsafeMutableRawPointer.self)
        // A throw from here on still runs `deinit`, which closes the state.
        for step in SandboxPolicy.steps {
            try apply(step)
        }
    }

    deinit {
        lua_close(handle)
        budget.deinitialize(count: 1)
        budget.deallocate()
    }

    /// The most bytes the state may hold.
    var memoryLimit: Int { budget.pointee.limit }

    /// The bytes the state holds now, garbage not yet collected included.
    var memoryInUse: Int { Int(jl_gc_count_bytes(handle)) }

    /// The `LuaState` that owns `handle`, for C callbacks. It is alive whenever Lua
    /// code runs, because only its methods run Lua code.
    static func owner(of handle: OpaquePointer?) -> LuaState {
        let address = jl_getextraspace(handle).unsafelyUnwrapped.load(as: UnsafeMutableRawPointer.self)
        return Unmanaged<LuaState>.fromOpaque(address).takeUnretainedValue()
    }

    /// Runs one setup step inside `lua_pcall`. Outside the protected call only
    /// non-allocating pushes happen (light C functions, light userdata, `nil`),
    /// which cannot raise.
    private func apply(_ step: SandboxPolicy.Step) throws(LuaError) {
        guard lua_checkstack(handle, 4) != 0 else { throw Self.setupMemoryError(limit: memoryLimit) }
        let argumentCount: Int32
        switch step {
        case .openLibrary(let name, let opener):
            jl_pushcfunction(handle, HostFunctions.openLibrary)
            lua_pushlightuserdata(handle, UnsafeMutableRawPointer(mutating: name.utf8Start))
            jl_pushcfunction(handle, opener)
            argumentCount = 2
        case .assign(let field, let library, let function):
            jl_pushcfunction(handle, HostFunctions.assignField)
            if let library {
                lua_pushlightuserdata(handle, UnsafeMutableRawPointer(mutating: library.utf8Start))
            } else {
                lua_pushnil(handle)
            }
            lua_pushlightuserdata(handle, UnsafeMutableRawPointer(mutating: field.utf8Start))
            if let function {
                jl_pushcfunction(handle, function)
            } else {
                lua_pushnil(handle)
            }
            argumentCount = 3
        }
        let status = jl_pcall(handle, argumentCount, 0, 0)
        guard status == LUA_OK else {
            defer { jl_pop(handle, 1) }
            if status == LUA_ERRMEM { throw Self.setupMemoryError(limit: memoryLimit) }
            // Unreachable with a well-formed policy; report rather than trap.
            throw LuaError(
                code: .runtime, chunkName: Self.setupChunkName, line: nil,
                message: "building the sandbox failed: \(errorMessage(at: -1))")
        }
    }

    private static func setupMemoryError(limit: Int) -> LuaError {
        LuaError(
            code: .memory, chunkName: setupChunkName, line: nil,
            message: "not enough memory to open the standard libraries within the \(limit)-byte limit;"
                + " raise the memory limit")
    }
}
