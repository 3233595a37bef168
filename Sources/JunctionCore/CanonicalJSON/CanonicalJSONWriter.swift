/// Writes a ``RuleValue`` as canonical JSON (see ``CanonicalJSON``).
struct CanonicalJSONWriter {
    /// One step of the path to the value being written, rendered only for an error.
    private enum Step {
        case key(String)
        case index(Int)
    }

    private let file: String
    private var path: [Step] = []
    /// The text so far.
    private(set) var bytes: [UInt8] = []

    init(file: String) {
        self.file = file
    }

    mutating func write(_ value: RuleValue, depth: Int) throws(CanonicalJSONError) {
        switch value {
        case .nil: bytes += "null".utf8
        case .bool(let flag): bytes += (flag ? "true" : "false").utf8
        case .int(let number): bytes += String(number).utf8
        case .double(let number): try writeDouble(number)
        case .string(let text): writeString(text)
        case .bytes:
            throw failure("a byte string that is not UTF-8 has no JSON form")
        case .array(let items):
            try enter(depth)
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                path.append(.index(index))
                try write(item, depth: depth + 1)
                path.removeLast()
            }
            bytes.append(UInt8(ascii: "]"))
        case .table(let fields):
            try enter(depth)
            bytes.append(UInt8(ascii: "{"))
            // Sorted by UTF-8 bytes, not by String's Unicode order: any reader can check it.
            let sorted = fields.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, field) in sorted.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(field.key)
                bytes.append(UInt8(ascii: ":"))
                path.append(.key(field.key))
                try write(field.value, depth: depth + 1)
                path.removeLast()
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Refuses nesting the reader would refuse, so whatever is written reads back.
    private func enter(_ depth: Int) throws(CanonicalJSONError) {
        let maximum = CanonicalJSONLimits.default.maximumDepth
        guard depth < maximum else {
            throw failure("nests deeper than \(maximum) arrays and objects")
        }
    }

    /// Swift's `description` is the shortest text that reads back to the same double;
    /// the exponent loses its `+` and leading zeros (`1e+20` → `1e20`, `1e-07` → `1e-7`).
    private mutating func writeDouble(_ number: Double) throws(CanonicalJSONError) {
        guard number.isFinite else {
            throw failure("\(number.isNaN ? "NaN" : number < 0 ? "-infinity" : "infinity") has no JSON form")
        }
        let text = number.description
        guard let e = text.firstIndex(of: "e") else {
            bytes += text.utf8
            return
        }
        bytes += text[..<e].utf8
        bytes.append(UInt8(ascii: "e"))
        // The exponent is at most three digits: it always fits an Int.
        bytes += String(Int(text[text.index(after: e)...].replacing("+", with: ""))!).utf8
    }

    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += #"\""#.utf8
            case UInt8(ascii: "\\"): bytes += #"\\"#.utf8
            case 0x08: bytes += #"\b"#.utf8
            case 0x0C: bytes += #"\f"#.utf8
            case 0x0A: bytes += #"\n"#.utf8
            case 0x0D: bytes += #"\r"#.utf8
            case 0x09: bytes += #"\t"#.utf8
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += #"\u00"#.utf8
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private func failure(_ message: String) -> CanonicalJSONError {
        var place = ""
        for step in path {
            switch step {
            case .key(let key): place += (place.isEmpty ? "" : ".") + ContextSchema.shown(key)
            case .index(let index): place += "[\(index)]"
            }
        }
        return CanonicalJSONError(file: file, place: place.isEmpty ? "the value" : place, message: message)
    }
}
