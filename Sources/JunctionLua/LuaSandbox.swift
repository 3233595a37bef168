/// A Lua 5.4 state for untrusted rule code.
///
/// The sandbox opens only the `base`, `string`, `table`, `math` and `utf8`
/// libraries, without `dofile`, `loadfile`, `load`, `require`, `collectgarbage`
/// and `string.dump`; `io`, `os`, `package`, `debug` and `coroutine` do not exist.
/// It loads source text only, never bytecode, caps its heap, and sends `print`
/// output to a handler instead of stdout. Globals persist from one
/// ``evaluate(source:chunkName:)`` to the next.
///
/// A sandbox is not thread-safe; use each one from one task at a time.
public final class LuaSandbox {
    /// The memory limit of a sandbox created without one: 8 MiB.
    public static let defaultMemoryLimit = 8 * 1024 * 1024

    private let state: LuaState

    /// Creates a sandbox.
    ///
    /// - Parameters:
    ///   - memoryLimit: The most bytes the Lua heap may hold. An allocation beyond it
    ///     fails, and the chunk that made it gets a ``LuaError/Code/memory`` error.
    ///   - printHandler: Receives each line Lua's `print` would write to stdout: the
    ///     arguments converted with `tostring` and joined with tabs, with no newline.
    /// - Throws: ``LuaError`` with code ``LuaError/Code/memory`` when `memoryLimit`
    ///   is too small to open the libraries.
    public init(
        memoryLimit: Int = LuaSandbox.defaultMemoryLimit,
        printHandler: @escaping (String) -> Void = { _ in }
    ) throws(LuaError) {
        precondition(memoryLimit > 0, "memoryLimit must be positive")
        state = try LuaState(memoryLimit: memoryLimit, printHandler: printHandler)
    }

    /// The most bytes the Lua heap may hold.
    public var memoryLimit: Int { state.memoryLimit }

    /// The bytes the Lua heap holds now, including garbage not yet collected.
    public var memoryInUse: Int { state.memoryInUse }

    /// Runs a chunk of Lua source and returns what it returns.
    ///
    /// The chunk runs in protected mode: an error in it is thrown, never a crash, and
    /// the sandbox stays usable afterwards, also after a memory error.
    ///
    /// - Parameters:
    ///   - source: Lua 5.4 source text. Precompiled (binary) chunks are refused.
    ///   - chunkName: The name errors show, such as `rules/redirects.lua`.
    /// - Returns: The chunk's return values, in order; `return nil` gives `[.nil]`,
    ///   and no `return` gives `[]`.
    /// - Throws: ``LuaError`` with code ``LuaError/Code/binaryChunkRefused``,
    ///   ``LuaError/Code/syntax``, ``LuaError/Code/runtime``, ``LuaError/Code/memory``,
    ///   or ``LuaError/Code/conversion`` when a returned value is a function, userdata
    ///   or thread, contains a cycle, or nests tables more than 32 levels deep.
    public func evaluate(source: String, chunkName: String) throws(LuaError) -> [LuaValue] {
        try state.evaluate(source: source, chunkName: chunkName)
    }
}

@available(*, unavailable, message: "A Lua state is single-threaded; create one sandbox per task.")
extension LuaSandbox: Sendable {}
