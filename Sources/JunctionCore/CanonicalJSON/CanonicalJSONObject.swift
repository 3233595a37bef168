/// One JSON object of a bundle part being decoded: typed access to its members, each
/// error at the member's path (`routes[3].params[0].type`), and unknown members refused
/// by ``finish()`` — a newer builder's field is not silently dropped.
package struct CanonicalJSONObject {
    /// The document, for errors.
    package let file: String
    /// The object's path; empty at the root.
    package let path: String
    private let fields: Fields
    /// The members asked for, in order, and how many of them were present: `finish()`
    /// compares that with the object's count, and names the unknown ones only then.
    private var asked: [String] = []
    private var found = 0

    /// The object `value` is, or an error naming `what` it should be.
    /// - Parameters:
    ///   - value: A decoded JSON value.
    ///   - path: Its path.
    ///   - file: The document.
    ///   - what: What the object is, for the message (`a route`).
    package init(_ value: RuleValue, at path: String, file: String, what: String) throws(CanonicalJSONError) {
        guard case .table(let fields) = value else {
            throw Self.mismatch(value, expected: what + " (an object)", at: path, file: file)
        }
        self.fields = .dictionary(fields)
        self.path = path
        self.file = file
    }

    /// An object read member by member (``CanonicalJSONReader/readMembers(depth:)``), its
    /// keys already unique: looked up in order, with no dictionary built for it.
    /// - Parameters:
    ///   - members: The members, as written.
    ///   - path: Its path.
    ///   - file: The document.
    package init(members: [(key: String, value: RuleValue)], at path: String, file: String) {
        fields = .members(members)
        self.path = path
        self.file = file
    }

    /// The members: a decoded table's dictionary, or a list read in order — for objects of a
    /// few known members, read once each, a search of the list is cheaper than hashing.
    private enum Fields {
        case dictionary([String: RuleValue])
        case members([(key: String, value: RuleValue)])

        var count: Int {
            switch self {
            case .dictionary(let fields): fields.count
            case .members(let members): members.count
            }
        }

        var keys: [String] {
            switch self {
            case .dictionary(let fields): Array(fields.keys)
            case .members(let members): members.map(\.key)
            }
        }

        subscript(key: String) -> RuleValue? {
            switch self {
            case .dictionary(let fields): return fields[key]
            case .members(let members):
                for member in members where member.key == key { return member.value }
                return nil
            }
        }
    }

    /// The path of member `key`: `routes[3].pattern`; a key that is not a plain name — of
    /// letters, digits, `_` and `-`, at most 64 — in brackets as a JSON string,
    /// `["byte 12"]`, so no key reads as another place (a byte offset, a deeper path).
    package func path(of key: String) -> String {
        guard Self.isPlainName(key) else {
            let quoted =
                (try? CanonicalJSON.encode(.string(ContextSchema.shown(key))))
                .map { String(decoding: $0, as: UTF8.self) } ?? "\"?\""
            return path + "[" + quoted + "]"
        }
        return path.isEmpty ? key : path + "." + key
    }

    /// Whether `key` shows as itself in a path.
    private static func isPlainName(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.count <= 64
            && key.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
    }

    /// Member `key`, or `nil` when absent.
    package mutating func value(_ key: String) -> RuleValue? {
        if asked.isEmpty { asked.reserveCapacity(16) }
        asked.append(key)
        let value = fields[key]
        if value != nil { found += 1 }
        return value
    }

    /// Member `key`, which must be present.
    package mutating func required(_ key: String) throws(CanonicalJSONError) -> RuleValue {
        guard let value = value(key) else { throw error(at: path, "missing \"\(key)\"") }
        return value
    }

    /// Text member `key`, or `nil` when absent.
    package mutating func string(_ key: String) throws(CanonicalJSONError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw mismatch(value, expected: "text", key) }
        return text
    }

    /// Text member `key`, which must be present.
    package mutating func requiredString(_ key: String) throws(CanonicalJSONError) -> String {
        guard let text = try string(key) else { throw error(at: path, "missing \"\(key)\"") }
        return text
    }

    /// Integer member `key`, or `nil` when absent.
    package mutating func int(_ key: String) throws(CanonicalJSONError) -> Int? {
        guard let value = value(key) else { return nil }
        guard case .int(let number) = value, let int = Int(exactly: number) else {
            throw mismatch(value, expected: "an integer", key)
        }
        return int
    }

    /// Integer member `key`, which must be present.
    package mutating func requiredInt(_ key: String) throws(CanonicalJSONError) -> Int {
        guard let number = try int(key) else { throw error(at: path, "missing \"\(key)\"") }
        return number
    }

    /// Boolean member `key`, or `nil` when absent.
    package mutating func bool(_ key: String) throws(CanonicalJSONError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw mismatch(value, expected: "true or false", key) }
        return flag
    }

    /// Array member `key`, or `nil` when absent.
    package mutating func array(_ key: String) throws(CanonicalJSONError) -> [RuleValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let items) = value else { throw mismatch(value, expected: "an array", key) }
        return items
    }

    /// Array member `key` whose items are all text, or `nil` when absent.
    package mutating func strings(_ key: String) throws(CanonicalJSONError) -> [String]? {
        guard let items = try array(key) else { return nil }
        var strings: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item else {
                throw Self.mismatch(item, expected: "text", at: path(of: key) + "[\(index)]", file: file)
            }
            strings.append(text)
        }
        return strings
    }

    /// Object member `key`, or `nil` when absent.
    package mutating func object(_ key: String, what: String) throws(CanonicalJSONError) -> CanonicalJSONObject? {
        guard let value = value(key) else { return nil }
        return try CanonicalJSONObject(value, at: path(of: key), file: file, what: what)
    }

    /// Refuses members that were never asked for.
    package func finish() throws(CanonicalJSONError) {
        guard found < fields.count else { return }
        let known = Set(asked)
        let unknown = fields.keys.filter { !known.contains($0) }
        guard let first = unknown.min(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) else { return }
        let expected = known.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.joined(separator: ", ")
        throw error(
            at: path(of: first),
            "unknown member; \(path.isEmpty ? "the document" : path) has \(expected)")
    }

    /// An error at `place`.
    package func error(at place: String, _ message: String) -> CanonicalJSONError {
        CanonicalJSONError(file: file, place: place.isEmpty ? "the document" : place, message: message)
    }

    /// An error at member `key`.
    package func error(_ key: String, _ message: String) -> CanonicalJSONError {
        error(at: path(of: key), message)
    }

    private func mismatch(_ value: RuleValue, expected: String, _ key: String) -> CanonicalJSONError {
        Self.mismatch(value, expected: expected, at: path(of: key), file: file)
    }

    /// `expected text, found 12`.
    package static func mismatch(
        _ value: RuleValue, expected: String, at path: String, file: String
    ) -> CanonicalJSONError {
        CanonicalJSONError(
            file: file, place: path.isEmpty ? "the document" : path,
            message: "expected \(expected), found \(kind(of: value))")
    }

    /// What a value is, for messages: `12`, `text "abc"`, `an array` …
    package static func kind(of value: RuleValue) -> String {
        switch value {
        case .nil: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): String(number)
        case .double(let number): "the float \(number)"
        case .string(let text): "text \"\(ContextSchema.shown(text))\""
        case .bytes: "bytes"
        case .array: "an array"
        case .table: "an object"
        }
    }
}
