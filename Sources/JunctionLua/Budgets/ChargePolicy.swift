/// Which library functions are charged for the work they do in C, and at what rate, as
/// data: the weights, and one row per function with its ``WorkCost``. ``ChargedCalls``
/// puts the rows into effect before the ``SandboxPrelude`` runs.
///
/// The instruction budget counts VM instructions, and a C function is one instruction
/// however much it does: `s:upper()` on a megabyte, or `string.rep("", "4e18")`. So each
/// function here is charged by its arguments, in the budget's own unit, before it starts
/// (it fails without starting when that is more than is left), and by the bytes of its
/// result afterwards where they are not known in advance.
///
/// Not here, and why: `string.len`, `math.*`, `tostring`, `type`, `next`, `ipairs`,
/// `pairs`, `rawget`, `rawlen`, `getmetatable`, `setmetatable`, `error` and `assert` do
/// a bounded amount of work (or work the VM already counted, such as the arguments of
/// `assert`); `string.find/match/gmatch/gsub` are the sandbox's own matcher
/// (``LuaPatternFunctions``), which charges every step it takes.
enum ChargePolicy {
    /// Units charged per byte a function reads or produces: one, like one VM instruction,
    /// which copies or compares a few bytes at most.
    static let unitsPerByte = 1
    /// Units charged per element a function moves, pushes, visits or compares.
    static let unitsPerElement = 1

    /// A charged function: its library's global name (`_G` for base functions), its
    /// name there, and how its work is measured.
    typealias Entry = (library: StaticString, name: StaticString, cost: WorkCost)

    /// The row at `index`, or `nil` past the last. A switch, not an array: installing the
    /// rows runs where Lua may raise, and a switch over literals holds no Swift reference.
    static func function(at index: Int) -> Entry? {
        switch index {
        case 0: ("string", "byte", .bytePositions)
        case 1: ("string", "char", .arguments)
        case 2: ("string", "format", .format)
        case 3: ("string", "lower", .textBytes)
        case 4: ("string", "pack", .pack)
        case 5: ("string", "packsize", .packSize)
        case 6: ("string", "rep", .repetition)
        case 7: ("string", "reverse", .textBytes)
        case 8: ("string", "sub", .substring)
        case 9: ("string", "unpack", .unpack)
        case 10: ("string", "upper", .textBytes)
        case 11: ("table", "concat", .concatenation)
        case 12: ("table", "insert", .insertion)
        case 13: ("table", "move", .move)
        case 14: ("table", "pack", .arguments)
        case 15: ("table", "remove", .removal)
        case 16: ("table", "sort", .sorting)
        case 17: ("table", "unpack", .tableUnpack)
        case 18: ("utf8", "char", .arguments)
        case 19: ("utf8", "codepoint", .codepoints)
        case 20: ("utf8", "codes", .codes)
        case 21: ("utf8", "len", .utf8Length)
        case 22: ("utf8", "offset", .utf8Offset)
        case 23: ("_G", "load", .chunk)
        case 24: ("_G", "rawequal", .rawEquality)
        case 25: ("_G", "select", .selection)
        case 26: ("_G", "tonumber", .numeral)
        default: nil
        }
    }
}
