/// The character classes of Lua patterns (`%a`, `%d`, …) as the C locale defines them, which
/// is what Lua's `ctype.h` calls see in a host that never calls `setlocale`: only ASCII
/// bytes belong to a class.
enum LuaPatternClass {
    /// Whether `byte` matches `%` followed by `letter`: a class when `letter` names one
    /// (its upper case is the complement), otherwise `letter` itself (`%.` is a dot).
    @inline(__always)
    static func matches(_ byte: UInt8, _ letter: UInt8) -> Bool {
        let lower = letter &- 0x41 < 26 ? letter | 0x20 : letter
        let member: Bool
        switch lower {
        case 0x61: member = isLetter(byte)  // a
        case 0x63: member = byte < 0x20 || byte == 0x7F  // c
        case 0x64: member = isDigit(byte)  // d
        case 0x67: member = byte &- 0x21 < 0x5E  // g: printable, not space
        case 0x6C: member = byte &- 0x61 < 26  // l
        case 0x70: member = byte &- 0x21 < 0x5E && !isLetter(byte) && !isDigit(byte)  // p
        case 0x73: member = byte == 0x20 || byte &- 0x09 < 5  // s: space, \t \n \v \f \r
        case 0x75: member = byte &- 0x41 < 26  // u
        case 0x77: member = isLetter(byte) || isDigit(byte)  // w
        case 0x78: member = isDigit(byte) || (byte | 0x20) &- 0x61 < 6  // x
        case 0x7A: member = byte == 0  // z: deprecated in 5.2, still in 5.4
        default: return letter == byte
        }
        return letter &- 0x61 < 26 ? member : !member
    }

    @inline(__always)
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
}
