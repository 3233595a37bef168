internal import CLua

/// The libraries a sandboxed state opens, as data: exactly these, each with
/// `luaL_requiref` (like Lua's `linit.c`, but our own list). What the prelude then
/// removes, wraps and freezes is in ``SandboxPrelude``.
///
/// Never opened, so unreachable by any path: `io`, `os`, `package` (and with it
/// `require` and the C loaders of CVE-2022-0543), `debug` and `coroutine`.
enum SandboxPolicy {
    /// A tuple, not an array: opening them runs where Lua may raise, and a tuple of
    /// static strings and C functions holds no Swift reference.
    static let libraries = (
        (name: "_G" as StaticString, opener: luaopen_base as lua_CFunction),
        (name: "string" as StaticString, opener: luaopen_string as lua_CFunction),
        (name: "table" as StaticString, opener: luaopen_table as lua_CFunction),
        (name: "math" as StaticString, opener: luaopen_math as lua_CFunction),
        (name: "utf8" as StaticString, opener: luaopen_utf8 as lua_CFunction)
    )
}
