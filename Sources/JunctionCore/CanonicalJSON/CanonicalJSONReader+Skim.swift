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

    /// The objects of the array at the position; `nil` when it is anything else.
    private mutating func skimObjects(keeping: Set<String>) -> [SkimmedObject]? {
        let wanted = keeping.map { (name: $0, bytes: Array($0.utf8)) }
        guard take(UInt8(ascii: "[")) else { return nil }
        var objects: [SkimmedObject] = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return objects }
        while true {
            skipWhitespace()
            let start = position
            guard take(UInt8(ascii: "{")) else { return nil }
            var kept: [(key: String, value: Range<Int>)] = []
            skipWhitespace()
            if !take(UInt8(ascii: "}")) {
                while true {
                    skipWhitespace()
                    guard let key = readKey(among: wanted) else { return nil }
                    skipWhitespace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipWhitespace()
                    let valueStart = position
                    guard stepOverValue() else { return nil }
                    if case .wanted(let name) = key { kept.append((name, valueStart..<position)) }
                    skipWhitespace()
                    if take(UInt8(ascii: "}")) { break }
                    guard take(UInt8(ascii: ",")) else { return nil }
                }
            }
            objects.append(SkimmedObject(span: start..<position, kept: kept))
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return objects }
            guard take(UInt8(ascii: ",")) else { return nil }
        }
    }

    /// A key the skim met: one it keeps, or another.
    private enum SkimmedKey {
        case wanted(String)
        case other
    }

    /// The key at the position, compared with `wanted` as bytes — no string is made for a
    /// key that is not wanted; `nil` when no key is there.
    private mutating func readKey(among wanted: [(name: String, bytes: [UInt8])]) -> SkimmedKey? {
        guard peek == UInt8(ascii: "\"") else { return nil }
        var end = position + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
        guard end < bytes.count else { return nil }
        if bytes[end] == UInt8(ascii: "\\") {
            // An escape: read as usual.
            guard let key = try? readString() else { return nil }
            return wanted.first { $0.name == key }.map { .wanted($0.name) } ?? .other
        }
        let key = bytes[(position + 1)..<end]
        position = end + 1
        return wanted.first { $0.bytes.elementsEqual(key) }.map { .wanted($0.name) } ?? .other
    }

    /// Steps over the value at the position without reading it: a string to its closing
    /// quote, an array or object to its closing bracket (counting those outside strings), a
    /// word or number to the next delimiter. Linear in the bytes it passes; `false` when
    /// the text ends first.
    private mutating func stepOverValue() -> Bool {
        var depth = 0
        var inString = false
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if inString {
                if byte == UInt8(ascii: "\\") {
                    position += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return true }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 {
                    position -= 1  // the container's own end: the value was a word
                    return true
                }
                depth -= 1
                if depth == 0 { return true }
            case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
                if depth == 0 {
                    position -= 1
                    return true
                }
            default: break
            }
        }
        return depth == 0 && !inString && position <= bytes.count
    }
}
