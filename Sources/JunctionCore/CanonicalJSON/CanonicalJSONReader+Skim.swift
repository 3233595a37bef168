extension CanonicalJSONReader {
    /// One object of the array ``readDocument(skimming:keeping:)`` skims: where its text
    /// lies, and where the values of the members it was asked to keep lie (unread).
    struct SkimmedObject {
        /// The object's bytes, `{` to `}`.
        var span: Range<Int>
        /// Each kept member's key and its value's bytes.
        var kept: [(key: String, value: Range<Int>)]
    }

    /// Reads a document that is an object whose member `arrayKey` is an array of objects,
    /// as ``readDocument(objectsIn:)`` does, but reads none of those objects: it notes where
    /// each lies and where the values of the members `keeping` names lie, stepping over
    /// every value without reading it, so their text is *not* checked. For text this process's code read in full before (an update
    /// re-opened under its acceptance stamp), whose objects are then read one by one when
    /// needed (``CanonicalJSONObject``).
    /// - Returns: The document's other members, and the objects of `arrayKey`; `nil` when
    ///   the text is not of that shape (the caller then reads it in full).
    mutating func readDocument(skimming arrayKey: String, keeping: Set<String>) -> (
        document: [String: RuleValue], objects: [SkimmedObject]
    )? {
        guard bytes.count <= limits.maximumBytes else { return nil }
        skipWhitespace()
        guard peek == UInt8(ascii: "{") else { return nil }
        var objects: [SkimmedObject]?
        let members = try? readMembers(depth: 1) { reader, key throws(CanonicalJSONError) in
            guard key == arrayKey else { return nil }
            guard let skimmed = reader.skimObjects(keeping: keeping) else {
                throw reader.failure("not an array of objects")
            }
            objects = skimmed
            return .array([])
        }
        skipWhitespace()
        guard let members, let objects, position == bytes.count else { return nil }
        return (Dictionary(members, uniquingKeysWith: { first, _ in first }), objects)
    }

    /// The objects of the array at the position; `nil` when it is anything else. One loop
    /// over the bytes with its index in a local: this runs over every byte of a table at
    /// every launch.
    private mutating func skimObjects(keeping: Set<String>) -> [SkimmedObject]? {
        let wanted = keeping.map { (name: $0, bytes: Array($0.utf8)) }
        let bytes = self.bytes
        let end = bytes.count
        var i = position
        func skipWhitespace() {
            while i < end, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }
        func take(_ byte: UInt8) -> Bool {
            guard i < end, bytes[i] == byte else { return false }
            i += 1
            return true
        }
        /// Past the string that starts at `i`; whether it has an escape; `false` when it does not end.
        func stepOverString() -> (ended: Bool, escaped: Bool) {
            i += 1
            var escaped = false
            while i < end {
                let byte = bytes[i]
                if byte == UInt8(ascii: "\"") {
                    i += 1
                    return (true, escaped)
                }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    i += 1
                }
                i += 1
            }
            return (false, escaped)
        }
        /// Past the value at `i` (see ``stepOverValue()``).
        func stepOverValue() -> Bool {
            guard i < end else { return false }
            if bytes[i] == UInt8(ascii: "\"") { return stepOverString().ended }
            var depth = 0
            while i < end {
                switch bytes[i] {
                case UInt8(ascii: "\""):
                    guard stepOverString().ended else { return false }
                    if depth == 0 { return true }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return true }  // the container's own end: the value was a word
                    depth -= 1
                    if depth == 0 {
                        i += 1
                        return true
                    }
                case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
                    if depth == 0 { return true }
                default: break
                }
                i += 1
            }
            return depth == 0
        }

        guard take(UInt8(ascii: "[")) else { return nil }
        var objects: [SkimmedObject] = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) {
            position = i
            return objects
        }
        while true {
            skipWhitespace()
            let start = i
            guard take(UInt8(ascii: "{")) else { return nil }
            var kept: [(key: String, value: Range<Int>)] = []
            skipWhitespace()
            if !take(UInt8(ascii: "}")) {
                while true {
                    skipWhitespace()
                    guard i < end, bytes[i] == UInt8(ascii: "\"") else { return nil }
                    let keyStart = i
                    let key = stepOverString()
                    guard key.ended else { return nil }
                    var name: String?
                    if key.escaped {
                        // An escape in a key: read as usual.
                        position = keyStart
                        guard let text = try? readString() else { return nil }
                        name = wanted.first { $0.name == text }?.name
                    } else {
                        let text = bytes[(keyStart + 1)..<(i - 1)]
                        name = wanted.first { $0.bytes.elementsEqual(text) }?.name
                    }
                    skipWhitespace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipWhitespace()
                    let valueStart = i
                    guard stepOverValue() else { return nil }
                    if let name { kept.append((name, valueStart..<i)) }
                    skipWhitespace()
                    if take(UInt8(ascii: "}")) { break }
                    guard take(UInt8(ascii: ",")) else { return nil }
                }
            }
            objects.append(SkimmedObject(span: start..<i, kept: kept))
            skipWhitespace()
            if take(UInt8(ascii: "]")) {
                position = i
                return objects
            }
            guard take(UInt8(ascii: ",")) else { return nil }
        }
    }
}
