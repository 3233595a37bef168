/// A value a Lua chunk returned, copied out of the Lua state.
///
/// Integers and floats stay apart, as `math.type` tells them apart: `1` is
/// `.integer(1)`, `1.0` is `.double(1.0)`. A Lua string becomes `.string` when it
/// is valid UTF-8 (embedded NULs included) and `.bytes` otherwise, so no byte is
/// lost or replaced. A table becomes `.table`, arrays included: `{10, 20}` is
/// `.table([1: 10, 2: 20])`, as Lua itself sees it. Functions, userdata and threads
/// have no `LuaValue`; returning one is a ``LuaError/Code/conversion`` error.
///
/// Equality is structural. A `.double(.nan)` is not equal to itself, as in Lua.
public enum LuaValue: Sendable, Hashable {
    /// Lua's `nil`.
    case `nil`

    /// A Lua boolean.
    case bool(Bool)

    /// A Lua number with the integer subtype.
    case integer(Int64)

    /// A Lua number with the float subtype.
    case double(Double)

    /// A Lua string that is valid UTF-8.
    case string(String)

    /// A Lua string that is not valid UTF-8, byte for byte.
    case bytes([UInt8])

    /// A Lua table, read raw: metatables are ignored. Keys are never `.nil`.
    case table([LuaValue: LuaValue])
}
