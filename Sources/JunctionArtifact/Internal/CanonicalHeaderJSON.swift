/// The canonical JSON of a header: keys sorted by their UTF-8 bytes, no whitespace,
/// integers in decimal without leading zeros, strings with only `"`, `\` and control
/// characters escaped (`\u00xx`, lowercase), everything else as raw UTF-8. Private to the
/// artifact on purpose: a header has exactly one byte form, so readers compare bytes.
enum CanonicalHeaderJSON {
    /// A JSON value of the few shapes a header has.
    indirect enum Value {
        case string(String)
        case integer(Int64)
        case array([Value])
        case object([(String, Value)])
    }

    /// The canonical bytes of `value`.
    static func encode(_ value: Value) -> [UInt8] {
        var out: [UInt8] = []
        write(value, into: &out)
        return out
    }

    private static func write(_ value: Value, into out: inout [UInt8]) {
        switch value {
        case .string(let string): writeString(string, into: &out)
        case .integer(let number): out.append(contentsOf: String(number).utf8)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let sorted = members.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
            for (index, (key, element)) in sorted.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ string: String, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0x00..<0x20:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
