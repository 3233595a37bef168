/// Reads a Lua 5.4 binary chunk (`ldump.c`'s format) from memory it does not own: the
/// primitives that ``BytecodeInspector`` and ``PreludeChunk`` walk prototypes with.
struct ChunkReader {
    /// Where parsing failed: the format is not the one this code reads.
    struct FormatError: Error {
        var offset: Int
    }

    let bytes: UnsafeRawBufferPointer
    var offset = 0

    mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw FormatError(offset: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func skip(_ count: Int) throws {
        guard count >= 0, offset + count <= bytes.count else { throw FormatError(offset: offset) }
        offset += count
    }

    /// `dumpSize`: 7-bit groups, most significant first, the last marked with 0x80.
    mutating func size() throws -> Int {
        var value = 0
        while true {
            let next = try byte()
            guard value < Int.max >> 7 else { throw FormatError(offset: offset) }
            value = value << 7 | Int(next & 0x7F)
            if next & 0x80 != 0 { return value }
        }
    }

    mutating func string() throws -> String? {
        let length = try size()
        guard length > 0 else { return nil }
        let start = offset
        try skip(length - 1)
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
    }

    /// Checks the header of a Lua 5.4 chunk with 4-byte instructions and 8-byte
    /// integers and floats, and moves past it.
    mutating func header() throws {
        let expected: [UInt8] = [0x1B, 0x4C, 0x75, 0x61, 0x54, 0x00, 0x19, 0x93, 0x0D, 0x0A, 0x1A, 0x0A, 4, 8, 8]
        for value in expected where try byte() != value {
            throw FormatError(offset: offset - 1)
        }
        try skip(16)  // LUAC_INT and LUAC_NUM
    }

    /// Skips a prototype's constants.
    mutating func skipConstants() throws {
        for _ in 0..<(try size()) {
            switch try byte() {
            case 3, 19: try skip(8)  // integer, float
            case 4, 20: _ = try string()  // short, long string
            case 0, 1, 17: break  // nil, false, true
            default: throw FormatError(offset: offset - 1)
            }
        }
    }

    /// Reads a prototype's constants: each string's text, `nil` for any other constant.
    mutating func stringConstants() throws -> [String?] {
        var constants: [String?] = []
        for _ in 0..<(try size()) {
            switch try byte() {
            case 3, 19:  // integer, float
                try skip(8)
                constants.append(nil)
            case 4, 20: constants.append(try string() ?? "")  // short, long string
            case 0, 1, 17: constants.append(nil)  // nil, false, true
            default: throw FormatError(offset: offset - 1)
            }
        }
        return constants
    }
}
