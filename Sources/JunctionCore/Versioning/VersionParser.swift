/// Reads a version's text by the grammar ``SemanticVersion`` documents, byte by byte, in
/// one pass: the one parser behind every version Junction reads (`version.compare`, the
/// manifest's versions, `version`-typed context values).
struct VersionParser {
    /// The longest text read as a version: longer is an error before any of it is read.
    static let maximumLength = 256
    /// The most digits a number may have: 18 always fit in an `Int`.
    static let maximumDigits = 18

    private let bytes: UnsafeBufferPointer<UInt8>
    private let text: String
    private var position = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>, text: String) {
        self.bytes = bytes
        self.text = text
    }

    /// Reads `text`.
    /// - Parameter text: The version as written.
    /// - Returns: The version.
    /// - Throws: ``VersionSyntaxError``: where the text stops being a version and why.
    static func parse(_ text: String) throws(VersionSyntaxError) -> SemanticVersion {
        let length = text.utf8.count
        guard length <= maximumLength else {
            throw VersionSyntaxError(
                text: text, offset: maximumLength,
                problem: "it is \(length) bytes long; a version has at most \(maximumLength)")
        }
        let read = { (buffer: UnsafeBufferPointer<UInt8>) -> Result<SemanticVersion, VersionSyntaxError> in
            var parser = VersionParser(buffer, text: text)
            return Result { () throws(VersionSyntaxError) in try parser.version() }
        }
        let result = text.utf8.withContiguousStorageIfAvailable(read) ?? Array(text.utf8).withUnsafeBufferPointer(read)
        let version = try result.get()
        // Written in full (`64` is `64.0.0`) a version grows by at most four bytes: one that
        // reads must also write within the cap, or what is written would not read back.
        if length > maximumLength - 4 {
            let written = version.description.utf8.count
            guard written <= maximumLength else {
                throw VersionSyntaxError(
                    text: text, offset: length,
                    problem:
                        "written in full it is \(written) bytes long; a version has at most \(maximumLength)")
            }
        }
        return version
    }

    // MARK: - The grammar

    /// `version = *space ["v" / "V"] core ["-" pre-release] [build] *space`
    private mutating func version() throws(VersionSyntaxError) -> SemanticVersion {
        skipSpaces()
        guard position < bytes.count else {
            throw VersionSyntaxError(text: text, offset: 0, problem: "it is empty")
        }
        if bytes[position] | 0x20 == UInt8(ascii: "v") { position += 1 }
        // core = number *("." number)
        var parts = [try number(what: "a number")]
        while peek == UInt8(ascii: ".") {
            position += 1
            parts.append(try number(what: "a number"))
        }
        var preRelease: [String] = []
        if peek == UInt8(ascii: "-") {
            position += 1
            preRelease = try identifiers(what: "a pre-release identifier", numeric: true)
        }
        var build: [String] = []
        if peek == UInt8(ascii: "+") {
            position += 1
            build = try identifiers(what: "build metadata", numeric: false)
        } else {
            skipSpaces()
            if peek == UInt8(ascii: "(") {
                position += 1
                build = try identifiers(what: "build metadata", numeric: false)
                guard peek == UInt8(ascii: ")") else { throw expected("\")\"") }
                position += 1
            }
        }
        skipSpaces()
        guard position == bytes.count else {
            throw expected(
                preRelease.isEmpty && build.isEmpty
                    ? "\".\", \"-\", \"+\", \"(\" or the end" : build.isEmpty ? "\"+\", \"(\" or the end" : "the end")
        }
        return SemanticVersion(parts: parts, preRelease: preRelease, build: build)
    }

    /// `number = 1*18DIGIT`, leading zeros allowed (`02` is 2).
    private mutating func number(what: String) throws(VersionSyntaxError) -> Int {
        let start = position
        var value = 0
        while let byte = peek, Bytes.isDigit(byte) {
            guard position - start < Self.maximumDigits else { throw tooManyDigits(at: start) }
            value = value &* 10 &+ Int(byte &- UInt8(ascii: "0"))
            position += 1
        }
        guard position > start else { throw expected(what) }
        return value
    }

    /// `identifier *("." identifier)`, where `identifier = 1*(ALPHA / DIGIT / "-")`. With
    /// `numeric`, an identifier of digits is a number: its leading zeros are dropped
    /// (`01` is `1`) and it has at most 18 digits.
    private mutating func identifiers(what: String, numeric: Bool) throws(VersionSyntaxError) -> [String] {
        var identifiers: [String] = []
        repeat {
            if !identifiers.isEmpty { position += 1 }  // the "."
            let start = position
            var digitsOnly = true
            while let byte = peek, Bytes.isAlpha(byte) || Bytes.isDigit(byte) || byte == UInt8(ascii: "-") {
                digitsOnly = digitsOnly && Bytes.isDigit(byte)
                position += 1
            }
            guard position > start else { throw expected(what) }
            var identifier = bytes[start..<position]
            if numeric, digitsOnly {
                while identifier.count > 1, identifier.first == UInt8(ascii: "0") {
                    identifier = identifier.dropFirst()
                }
                guard identifier.count <= Self.maximumDigits else { throw tooManyDigits(at: start) }
            }
            identifiers.append(String(decoding: identifier, as: UTF8.self))
        } while peek == UInt8(ascii: ".")
        return identifiers
    }

    // MARK: - Support

    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipSpaces() {
        while let byte = peek, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { position += 1 }
    }

    /// `expected X at byte N, found "c"` (or `found the end`), N counting from 1.
    private func expected(_ what: String) -> VersionSyntaxError {
        VersionSyntaxError(
            text: text, offset: position, problem: "expected \(what) at byte \(position + 1), found \(found)")
    }

    private func tooManyDigits(at start: Int) -> VersionSyntaxError {
        VersionSyntaxError(
            text: text, offset: start,
            problem: "the number at byte \(start + 1) has more than \(Self.maximumDigits) digits")
    }

    /// The character at `position`, quoted (a control character as its code point), or
    /// `the end`. The parser stops only before ASCII bytes or at a character's first byte.
    private var found: String {
        let index = text.utf8.index(text.startIndex, offsetBy: position)
        guard position < bytes.count, let character = text[index...].first else { return "the end" }
        guard let scalar = character.unicodeScalars.first, scalar.properties.generalCategory != .control else {
            let hex = String(character.unicodeScalars.first?.value ?? 0, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return "\"\(character)\""
    }
}
