/// A value that crosses between Swift and a rule's Lua code: a request going in,
/// a decision coming out.
///
/// The bridge keeps every distinction Lua makes and adds none:
///
/// - Integers and floats stay apart in both directions, as `math.type` tells them
///   apart: Lua's `3` is `.int(3)`, `3.0` is `.double(3.0)`, and `.double(3)` reaches
///   Lua as the float `3.0`.
/// - NaN, `inf` and `-inf` are ordinary `.double` values both ways (`0/0`, `1/0`,
///   `-1/0` in Lua), and so is `-0.0`. As with `Double`, `.double(.nan)` is not
///   equal to itself.
/// - A Lua string that is valid UTF-8 (embedded NULs included) is `.string`; any
///   other Lua string is `.bytes`, byte for byte. Nothing is repaired or replaced.
///   A table key must be valid UTF-8.
/// - A Lua table whose keys are exactly the integers `1...n` is `.array`; a table
///   whose keys are all strings is `.table`; the empty table is `.table([:])`, so
///   `.array([])` comes back from Lua as `.table([:])`. Any other table — mixed
///   integer and string keys, integer keys with holes or below 1, keys that are
///   floats, booleans or tables — does not convert, and the error names the
///   offending key's path, such as `result.items[3].x`.
/// - Tables are read raw: metatables are ignored, and no Lua code runs while a
///   value is read.
/// - Tables cannot hold `nil`, so `.nil` may appear only at the top level; inside
///   an `.array` or `.table` it is refused when the value is passed to Lua.
///
/// ``RuleValueLimits`` bounds how deep, how many and how many string bytes a value
/// may have, in both directions. Equality is structural; strings compare as Swift
/// strings do (by canonical equivalence), but Lua receives the exact bytes given.
public enum RuleValue: Sendable, Hashable {
    /// Lua's `nil`.
    case `nil`

    /// A Lua boolean.
    case bool(Bool)

    /// A Lua number with the integer subtype.
    case int(Int64)

    /// A Lua number with the float subtype; NaN and the infinities included.
    case double(Double)

    /// A Lua string that is valid UTF-8.
    case string(String)

    /// A Lua string that is not valid UTF-8, byte for byte.
    case bytes([UInt8])

    /// A Lua table with the keys `1...n`; element `0` here is `t[1]` in Lua.
    case array([RuleValue])

    /// A Lua table whose keys are all strings.
    case table([String: RuleValue])
}
