/// A key Lua tables are indexed by through `lua_rawgetp` and `lua_rawsetp`: the address of
/// one byte allocated for this key alone and kept for the life of the process — the Swift
/// form of Lua's idiom, the address of a static C variable.
///
/// A string literal's address will not do: the compiler may keep several copies of one
/// literal, and then the code that writes under the key and the code that reads it use
/// different addresses. Built with AddressSanitizer (which pads each literal with a red
/// zone, so none are merged), a read-only table's backing was stored under one copy and
/// looked for under another, and a table passed to Lua came back as its empty proxy — the
/// `lua-bridge` fuzz target's first finding.
struct LuaAddressKey: @unchecked Sendable {
    // Unchecked: the address is never read or written through, only compared by Lua, so
    // sharing it between threads shares nothing.
    /// The address, for `lua_rawgetp` and `lua_rawsetp`.
    let address: UnsafeRawPointer

    /// A key no other key equals.
    init() {
        address = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))
    }
}
