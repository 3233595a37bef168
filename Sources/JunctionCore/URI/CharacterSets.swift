/// RFC 3986 §3 character sets as a 256-entry bit table, for strict parsing.
enum CharacterSets {
    static let userinfo: UInt8 = 1
    static let regName: UInt8 = 2
    static let path: UInt8 = 4
    static let queryOrFragment: UInt8 = 8
    static let scheme: UInt8 = 16

    /// `table[byte] & set != 0` when `byte` belongs to `set` (without `%`, which the
    /// parser checks as an escape).
    static let table: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        let alpha = Array(UInt8(ascii: "a")...UInt8(ascii: "z")) + Array(UInt8(ascii: "A")...UInt8(ascii: "Z"))
        let digit = Array(UInt8(ascii: "0")...UInt8(ascii: "9"))
        let unreserved = alpha + digit + Array("-._~".utf8)
        let subDelims = Array("!$&'()*+,;=".utf8)
        for byte in unreserved + subDelims {
            table[Int(byte)] |= userinfo | regName | path | queryOrFragment
        }
        for byte in ":".utf8 { table[Int(byte)] |= userinfo | path | queryOrFragment }
        for byte in "@".utf8 { table[Int(byte)] |= path | queryOrFragment }
        for byte in "/".utf8 { table[Int(byte)] |= path | queryOrFragment }
        for byte in "?".utf8 { table[Int(byte)] |= queryOrFragment }
        for byte in alpha + digit + Array("+-.".utf8) { table[Int(byte)] |= scheme }
        return table
    }()
}
