extension CanonicalJSONReader {
    /// Reads a document that is an object whose member `arrayKey` is an array of objects,
    /// as ``readDocument(objectsIn:)`` does, but reads none of those objects: it hands `each`
    /// where each lies and where the values of the members `keeping` names lie (`nil` for
    /// one it lacks), stepping over every value without reading it, so their text is *not*
    /// checked. For text this process's code read in full before (an update re-opened under
    /// its acceptance stamp), whose objects are then read one by one when needed.
    /// - Parameter each: Takes an object's bytes (`{` to `}`) and its kept values' bytes, in
    ///   the order of `keeping`; `false` stops the skim.
    /// - Returns: The document's other members; `nil` when the text is not of that shape or
    ///   `each` stopped (the caller then reads it in full).
    mutating func readDocument(
        skimming arrayKey: String, keeping: [String], each: (Range<Int>, [Range<Int>?]) -> Bool
    ) -> [String: RuleValue]? {
        guard bytes.count <= limits.maximumBytes else { return nil }
        skipWhitespace()
        guard peek == UInt8(ascii: "{") else { return nil }
        var skimmed = false
        let members = try? readMembers(depth: 1) { reader, key throws(CanonicalJSONError) in
            guard key == arrayKey else { return nil }
            guard reader.skimObjects(keeping: keeping, each: each) else {
                throw reader.failure("not an array of objects")
            }
            skimmed = true
            return .array([])
        }
        skipWhitespace()
        guard let members, skimmed, position == bytes.count else { return nil }
        return Dictionary(members, uniquingKeysWith: { first, _ in first })
    }

    /// The objects of the array at the position; `nil` when it is anything else. One loop
    /// over the bytes with its index in a local: this runs over every byte of a table at
    /// every launch.
    private mutating func skimObjects(keeping: [String], each: (Range<Int>, [Range<Int>?]) -> Bool) -> Bool {
        let wanted = keeping.map { Array($0.utf8) }
        // One buffer for every object's values: no array is made per object.
        var values = [Range<Int>?](repeating: nil, count: keeping.count)
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

        guard take(UInt8(ascii: "[")) else { return false }
        skipWhitespace()
        if take(UInt8(ascii: "]")) {
            position = i
            return true
        }
        while true {
            skipWhitespace()
            let start = i
            guard take(UInt8(ascii: "{")) else { return false }
            for index in values.indices { values[index] = nil }
            skipWhitespace()
            if !take(UInt8(ascii: "}")) {
                while true {
                    skipWhitespace()
                    guard i < end, bytes[i] == UInt8(ascii: "\"") else { return false }
                    let keyStart = i
                    let key = stepOverString()
                    guard key.ended else { return false }
                    var slot: Int?
                    if key.escaped {
                        // An escape in a key: read as usual.
                        position = keyStart
                        guard let text = try? readString() else { return false }
                        slot = keeping.firstIndex(of: text)
                    } else {
                        let text = bytes[(keyStart + 1)..<(i - 1)]
                        slot = wanted.firstIndex { $0.elementsEqual(text) }
                    }
                    skipWhitespace()
                    guard take(UInt8(ascii: ":")) else { return false }
                    skipWhitespace()
                    let valueStart = i
                    guard stepOverValue() else { return false }
                    if let slot { values[slot] = valueStart..<i }
                    skipWhitespace()
                    if take(UInt8(ascii: "}")) { break }
                    guard take(UInt8(ascii: ",")) else { return false }
                }
            }
            guard each(start..<i, values) else { return false }
            skipWhitespace()
            if take(UInt8(ascii: "]")) {
                position = i
                return true
            }
            guard take(UInt8(ascii: ",")) else { return false }
        }
    }
}
