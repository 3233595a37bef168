/// Reads strict JSON (see ``CanonicalJSON``) into a ``RuleValue``, in one pass whose
/// cost is linear in the text; recursion is bounded by ``CanonicalJSONLimits/maximumDepth``.
struct CanonicalJSONReader {
    let bytes: [UInt8]
    let file: String
    let limits: CanonicalJSONLimits
    var position = 0

    init(bytes: [UInt8], file: String, limits: CanonicalJSONLimits) {
        self.bytes = bytes
        self.file = file
        self.limits = limits
    }

    mutating func readDocument() throws(CanonicalJSONError) -> RuleValue {
        guard bytes.count <= limits.maximumBytes else {
            throw CanonicalJSONError(
                file: file, place: "",
                message: "the text has \(bytes.count) bytes, more than the \(limits.maximumBytes) allowed")
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { throw failure("a byte-order mark; JSON text starts without one") }
        skipWhitespace()
        let value = try readValue(depth: 0)
        skipWhitespace()
        guard position == bytes.count else { throw failure("text after the JSON value") }
        return value
    }

    // MARK: - Values

    private mutating func readValue(depth: Int) throws(CanonicalJSONError) -> RuleValue {
        guard position < bytes.count else { throw failure("the text ends where a value should be") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
        case UInt8(ascii: "["): return try readArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): return try readWord("true", .bool(true))
        case UInt8(ascii: "f"): return try readWord("false", .bool(false))
        case UInt8(ascii: "n"): return try readWord("null", .nil)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        case let byte: throw failure("\(Self.shown(byte)) cannot start a value")
        }
    }

    private mutating func readWord(_ word: StaticString, _ value: RuleValue) throws(CanonicalJSONError) -> RuleValue {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes[position...].starts(with: expected) else { throw failure("not a JSON value; expected \(word)") }
        position += expected.count
        return value
    }

    private mutating func readArray(depth: Int) throws(CanonicalJSONError) -> RuleValue {
        try enter(depth)
        position += 1
        var items: [RuleValue] = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return .array(items) }
        while true {
            skipWhitespace()
            if peek == UInt8(ascii: "]") { throw failure("a trailing comma before ]") }
            items.append(try readValue(depth: depth))
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return .array(items) }
            guard take(UInt8(ascii: ",")) else { throw failure("expected , or ] after an array item") }
        }
    }

    private mutating func readObject(depth: Int) throws(CanonicalJSONError) -> RuleValue {
        let members = try readMembers(depth: depth) { _, _ throws(CanonicalJSONError) in nil }
        return .table(Dictionary(uniqueKeysWithValues: members))
    }

    // MARK: - Objects read member by member

    /// A member of the document ``readDocument(objectsIn:)`` reads: its value, or — for each
    /// item of the array it names — the item's members in order.
    enum Item {
        case members([(key: String, value: RuleValue)])
        case value(RuleValue)
    }

    /// Reads a document that is an object whose member `arrayKey` is an array of objects —
    /// a route table's `routes` — giving those objects' members in order, with no
    /// dictionary built for them (each is looked up once by ``CanonicalJSONObject``), and
    /// everything else as ``readDocument()`` does: the same text is refused for the same
    /// reasons at the same bytes.
    /// - Returns: The document's members (`arrayKey` as an empty array when its items come
    ///   apart), and the items of `arrayKey` when it is an array; the document itself when
    ///   it is no object.
    mutating func readDocument(objectsIn arrayKey: String) throws(CanonicalJSONError)
        -> (document: RuleValue, items: [Item]?)
    {
        guard bytes.count <= limits.maximumBytes else {
            throw CanonicalJSONError(
                file: file, place: "",
                message: "the text has \(bytes.count) bytes, more than the \(limits.maximumBytes) allowed")
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { throw failure("a byte-order mark; JSON text starts without one") }
        skipWhitespace()
        guard peek == UInt8(ascii: "{") else {
            let value = try readValue(depth: 0)
            skipWhitespace()
            guard position == bytes.count else { throw failure("text after the JSON value") }
            return (value, nil)
        }
        var items: [Item]?
        let members = try readMembers(depth: 1) { reader, key throws(CanonicalJSONError) in
            guard key == arrayKey, reader.peek == UInt8(ascii: "[") else { return nil }
            items = try reader.readItems(depth: 2)
            return .array([])
        }
        skipWhitespace()
        guard position == bytes.count else { throw failure("text after the JSON value") }
        return (.table(Dictionary(members, uniquingKeysWith: { first, _ in first })), items)
    }

    /// The items of the array at the position: each object's members in order, any other
    /// item as a value.
    private mutating func readItems(depth: Int) throws(CanonicalJSONError) -> [Item] {
        try enter(depth)
        position += 1
        var items: [Item] = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return items }
        while true {
            skipWhitespace()
            if peek == UInt8(ascii: "]") { throw failure("a trailing comma before ]") }
            if peek == UInt8(ascii: "{") {
                items.append(.members(try readMembers(depth: depth + 1) { _, _ throws(CanonicalJSONError) in nil }))
            } else {
                items.append(.value(try readValue(depth: depth)))
            }
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return items }
            guard take(UInt8(ascii: ",")) else { throw failure("expected , or ] after an array item") }
        }
    }

    /// The members of the object at the position, in order, its keys checked to be unique;
    /// `special` may read a member's value itself (and give what stands for it), or leave
    /// it (`nil`) to be read as usual.
    mutating func readMembers(
        depth: Int, special: (inout CanonicalJSONReader, String) throws(CanonicalJSONError) -> RuleValue?
    ) throws(CanonicalJSONError) -> [(key: String, value: RuleValue)] {
        try enter(depth)
        position += 1
        var members: [(key: String, value: RuleValue)] = []
        // Past a few members, keys are checked against a set: a long object costs no more
        // than its dictionary would.
        var keys: Set<String>?
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return members }
        members.reserveCapacity(8)
        while true {
            skipWhitespace()
            if peek == UInt8(ascii: "}") { throw failure("a trailing comma before }") }
            guard peek == UInt8(ascii: "\"") else { throw failure("expected a key in double quotes") }
            let keyStart = position
            let key = try readString()
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { throw failure("expected : after a key") }
            skipWhitespace()
            let value: RuleValue
            if let read = try special(&self, key) { value = read } else { value = try readValue(depth: depth) }
            let repeated: Bool
            if members.count < 16 {
                repeated = members.contains { $0.key == key }
            } else {
                if keys == nil { keys = Set(members.map(\.key)) }
                repeated = !keys!.insert(key).inserted
            }
            guard !repeated else {
                position = keyStart
                throw failure("the key \"\(ContextSchema.shown(key))\" appears twice in one object")
            }
            members.append((key, value))
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return members }
            guard take(UInt8(ascii: ",")) else { throw failure("expected , or } after an object member") }
        }
    }

    private func enter(_ depth: Int) throws(CanonicalJSONError) {
        guard depth <= limits.maximumDepth else {
            throw failure("nests deeper than \(limits.maximumDepth) arrays and objects")
        }
    }

    // MARK: - Strings

    mutating func readString() throws(CanonicalJSONError) -> String {
        let start = position
        position += 1
        // Most strings have no escape: they are read straight from the text.
        var end = position
        var highBits: UInt8 = 0
        while end < bytes.count, end - position <= limits.maximumStringBytes {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\""), end - position <= limits.maximumStringBytes {
                // ASCII is valid UTF-8 as it is; `String(validating:)`, generic, looks its types'
                // metadata up on every call, so only other text pays for it.
                let text = bytes[position..<end]
                let string =
                    highBits < 0x80 ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
                guard let string else {
                    position = start
                    throw failure("a string that is not valid UTF-8")
                }
                position = end + 1
                return string
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            highBits |= byte
            end += 1
        }
        var text: [UInt8] = []
        while true {
            guard position < bytes.count else {
                position = start
                throw failure("a string that is never closed")
            }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { throw failure("control character \(Self.shown(byte)) in a string; write it escaped") }
            if byte == UInt8(ascii: "\\") {
                try readEscape(into: &text)
            } else {
                text.append(byte)
                position += 1
            }
            if text.count > limits.maximumStringBytes {
                position = start
                throw failure("a string longer than \(limits.maximumStringBytes) bytes")
            }
        }
        position += 1
        guard let string = String(validating: text, as: UTF8.self) else {
            position = start
            throw failure("a string that is not valid UTF-8")
        }
        return string
    }

    private mutating func readEscape(into text: inout [UInt8]) throws(CanonicalJSONError) {
        guard position + 1 < bytes.count else { throw failure("a string that ends in the middle of an escape") }
        let letter = bytes[position + 1]
        let simple: UInt8? =
            switch letter {
            case UInt8(ascii: "\""): UInt8(ascii: "\"")
            case UInt8(ascii: "\\"): UInt8(ascii: "\\")
            case UInt8(ascii: "/"): UInt8(ascii: "/")
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
        if let simple {
            text.append(simple)
            position += 2
            return
        }
        guard letter == UInt8(ascii: "u") else { throw failure("unknown escape \\\(Self.character(letter))") }
        var scalar = try readHex4(at: position + 2)
        position += 6
        if (0xD800...0xDBFF).contains(scalar) {
            // A high surrogate must be followed by the escape of a low one.
            let low: UInt32? =
                bytes[position...].starts(with: #"\u"#.utf8) ? try readHex4(at: position + 2) : nil
            guard let low, (0xDC00...0xDFFF).contains(low) else {
                throw failure("a high surrogate escape without a low one after it")
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            position += 6
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw failure("a low surrogate escape without a high one before it")
        }
        text += String(Character(Unicode.Scalar(scalar)!)).utf8
    }

    private func readHex4(at offset: Int) throws(CanonicalJSONError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw failure("a \\u escape needs four hexadecimal digits") }
        var value: UInt32 = 0
        for byte in bytes[offset..<offset + 4] {
            guard let digit = Bytes.hexValue(byte) else { throw failure("a \\u escape needs four hexadecimal digits") }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    // MARK: - Numbers

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private mutating func readNumber() throws(CanonicalJSONError) -> RuleValue {
        let start = position
        var isFloat = false
        _ = take(UInt8(ascii: "-"))
        guard let first = peek, Bytes.isDigit(first) else { throw failure("a minus sign without digits after it") }
        position += 1
        if first == UInt8(ascii: "0"), let next = peek, Bytes.isDigit(next) {
            position = start
            throw failure("a number with a leading zero")
        }
        skipDigits()
        if take(UInt8(ascii: ".")) {
            isFloat = true
            guard let next = peek, Bytes.isDigit(next) else { throw failure("a decimal point without digits after it") }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            isFloat = true
            position += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            guard let next = peek, Bytes.isDigit(next) else { throw failure("an exponent without digits") }
            skipDigits()
        }
        guard position - start <= limits.maximumNumberLength else {
            position = start
            throw failure("a number longer than \(limits.maximumNumberLength) characters")
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if !isFloat, let integer = Int64(text) { return .int(integer) }
        guard let number = Double(text), number.isFinite else {
            position = start
            throw failure("a number too large for a double")
        }
        return .double(number)
    }

    private mutating func skipDigits() {
        while let byte = peek, Bytes.isDigit(byte) { position += 1 }
    }

    // MARK: - Bytes

    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        position += 1
        return true
    }

    mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    func failure(_ message: String) -> CanonicalJSONError {
        CanonicalJSONError(file: file, place: "byte \(position)", message: message)
    }

    /// A byte as a message shows it: `"x"`, or `U+000A` / `0xFF` when not printable ASCII.
    private static func shown(_ byte: UInt8) -> String {
        if byte < 0x20 {
            let hex = String(byte, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        if byte >= 0x7F { return "0x" + String(byte, radix: 16, uppercase: true) }
        return "\"\(character(byte))\""
    }

    private static func character(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16, uppercase: true)
    }
}
