internal import CLua

/// What a fresh sandboxed state is made of, as data: the libraries it opens and
/// the globals it removes or replaces, applied in order.
///
/// Anything not opened here does not exist in the sandbox: `io`, `os`, `package`,
/// `debug` and `coroutine` are never loaded, so no code path can reach them.
enum SandboxPolicy {
    /// One setup step, run inside `lua_pcall` by ``LuaState``.
    enum Step {
        /// Opens a standard library with `luaL_requiref` and sets its global.
        case openLibrary(StaticString, lua_CFunction)

        /// Sets `field` of the global table named `library` (of the globals
        /// themselves when `library` is `nil`) to a C function, or to `nil`
        /// when `function` is `nil`.
        case assign(field: StaticString, library: StaticString?, function: lua_CFunction?)
    }

    /// The setup, in order.
    static let steps: [Step] = [
        .openLibrary("_G", luaopen_base),
        .openLibrary("string", luaopen_string),
        .openLibrary("table", luaopen_table),
        .openLibrary("math", luaopen_math),
        .openLibrary("utf8", luaopen_utf8),
        // Reach the file system or the module system.
        .assign(field: "dofile", library: nil, function: nil),
        .assign(field: "loadfile", library: nil, function: nil),
        .assign(field: "require", library: nil, function: nil),
        // Accepts binary chunks.
        .assign(field: "load", library: nil, function: nil),
        // Lets a rule stop or tune the collector that enforces the memory cap.
        .assign(field: "collectgarbage", library: nil, function: nil),
        // Produces binary chunks.
        .assign(field: "dump", library: "string", function: nil),
        // Writes to stdout; the host's print handler receives the line instead.
        .assign(field: "print", library: nil, function: HostFunctions.print),
    ]
}
