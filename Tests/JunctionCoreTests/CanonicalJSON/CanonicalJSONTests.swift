import JunctionCore
import JunctionTestSupport
import Testing

@Suite struct CanonicalJSONTests {
    static func text(_ value: RuleValue) throws(CanonicalJSONError) -> String {
        String(decoding: try CanonicalJSON.encode(value), as: UTF8.self)
    }

    static func read(_ text: String, limits: CanonicalJSONLimits = .default) throws(CanonicalJSONError) -> RuleValue {
        try CanonicalJSON.decode(Array(text.utf8), file: "t.json", limits: limits)
    }

    /// Value, its canonical text: written exactly so, and read back equal.
    static let roundTrips: [(RuleValue, String)] = [
        (.nil, "null"),
        (true, "true"),
        (.int(5), "5"),
        (.double(5), "5.0"),
        (.int(-0), "0"),
        (.double(-0.0), "-0.0"),
        (.int(.max), "9223372036854775807"),
        (.int(.min), "-9223372036854775808"),
        (.double(0.1), "0.1"),
        (.double(1e20), "1e20"),
        (.double(1e-7), "1e-7"),
        (.double(-2.5e-300), "-2.5e-300"),
        (.double(.greatestFiniteMagnitude), "1.7976931348623157e308"),
        (.double(.leastNonzeroMagnitude), "5e-324"),
        (.double(9_007_199_254_740_992), "9007199254740992.0"),
        (.string(""), "\"\""),
        (.string("a\"b\\c/d"), #""a\"b\\c/d""#),
        (.string("\u{8}\u{c}\n\r\t\u{0}\u{1f}\u{7f}"), #""\b\f\n\r\t\u0000\u001f\#u{7f}""#),
        (.string("é 漢 😀"), "\"é 漢 😀\""),
        (.string("abc\u{7f}"), "\"abc\u{7f}\""),
        (.array([]), "[]"),
        (.table([:]), "{}"),
        (.array([.nil, 1, .double(1), "1"]), #"[null,1,1.0,"1"]"#),
        (
            ["b": 1, "a": ["z": [], "y": [:]], "B": 2, "é": 3, "e": 4],
            #"{"B":2,"a":{"y":{},"z":[]},"b":1,"e":4,"é":3}"#
        ),
        (["user": .nil], #"{"user":null}"#),
    ]

    @Test(arguments: roundTrips)
    func writesTheCanonicalTextAndReadsItBack(value: RuleValue, text: String) throws {
        #expect(try Self.text(value) == text)
        let back = try Self.read(text)
        #expect(back == value)
        if case .double(let a) = value, case .double(let b) = back { #expect(a.bitPattern == b.bitPattern) }
    }

    @Test func keepsEveryDoubleBitForBit() throws {
        var random = SplitMix64(seed: 14)
        for _ in 0..<5_000 {
            let number = Double(bitPattern: random.next())
            guard number.isFinite else { continue }
            let text = try Self.text(.double(number))
            guard case .double(let back) = try Self.read(text) else {
                Issue.record("\(text) read back as no float")
                continue
            }
            #expect(back.bitPattern == number.bitPattern, "\(text)")
        }
    }

    /// Text a non-canonical writer may produce, and what it reads as.
    static let lenientButValid: [(String, RuleValue)] = [
        (" { \"a\" : [ 1 , 2 ] }\n", ["a": [1, 2]]),
        (#""\u00e9\ud83d\ude00\/""#, "é😀/"),
        ("1E2", .double(100)),
        ("-0", .int(0)),
        ("12345678901234567890", .double(Double("12345678901234567890")!)),
        ("1.5e+3", .double(1500)),
    ]

    @Test(arguments: lenientButValid)
    func readsAnyStrictJSON(text: String, value: RuleValue) throws {
        #expect(try Self.read(text) == value)
    }

    static let refusals: [(String, String)] = [
        ("", "t.json: byte 0: the text ends where a value should be"),
        ("[1,]", "t.json: byte 3: a trailing comma before ]"),
        (#"{"a":1,}"#, "t.json: byte 7: a trailing comma before }"),
        ("[1 2]", "t.json: byte 3: expected , or ] after an array item"),
        (#"{"a" 1}"#, "t.json: byte 5: expected : after a key"),
        ("{a:1}", "t.json: byte 1: expected a key in double quotes"),
        (#"{"a":1,"a":2}"#, #"t.json: byte 7: the key "a" appears twice in one object"#),
        ("01", "t.json: byte 0: a number with a leading zero"),
        ("-01", "t.json: byte 0: a number with a leading zero"),
        ("-", "t.json: byte 1: a minus sign without digits after it"),
        ("1.", "t.json: byte 2: a decimal point without digits after it"),
        ("1e", "t.json: byte 2: an exponent without digits"),
        (".5", #"t.json: byte 0: "." cannot start a value"#),
        ("+1", #"t.json: byte 0: "+" cannot start a value"#),
        ("NaN", #"t.json: byte 0: "N" cannot start a value"#),
        ("nan", "t.json: byte 0: not a JSON value; expected null"),
        ("Infinity", #"t.json: byte 0: "I" cannot start a value"#),
        ("1e400", "t.json: byte 0: a number too large for a double"),
        ("tru", "t.json: byte 0: not a JSON value; expected true"),
        ("[1] // note", "t.json: byte 4: text after the JSON value"),
        ("/* c */ 1", #"t.json: byte 0: "/" cannot start a value"#),
        ("1 2", "t.json: byte 2: text after the JSON value"),
        ("\u{FEFF}1", "t.json: byte 0: a byte-order mark; JSON text starts without one"),
        ("\"a\nb\"", "t.json: byte 2: control character U+000A in a string; write it escaped"),
        ("\"abc", "t.json: byte 0: a string that is never closed"),
        (#""\x""#, #"t.json: byte 1: unknown escape \x"#),
        (#""\u12G4""#, #"t.json: byte 1: a \u escape needs four hexadecimal digits"#),
        (#""\ud83d""#, "t.json: byte 7: a high surrogate escape without a low one after it"),
        (#""\ud83d\u0041""#, "t.json: byte 7: a high surrogate escape without a low one after it"),
        (#""\ude00""#, "t.json: byte 7: a low surrogate escape without a high one before it"),
        ("'a'", #"t.json: byte 0: "'" cannot start a value"#),
    ]

    @Test(arguments: refusals)
    func refusesWhatIsNotStrictJSON(text: String, message: String) {
        do {
            _ = try Self.read(text)
            Issue.record("read \(text)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func refusesTextThatIsNotUTF8() {
        for (bytes, message) in [
            ([0x22, 0xC3, 0x28, 0x22], "t.json: byte 0: a string that is not valid UTF-8"),
            ([0x22, 0xED, 0xA0, 0x80, 0x22], "t.json: byte 0: a string that is not valid UTF-8"),
            // ASCII first, then one byte that is not: the whole string is validated.
            ([0x5B, 0x22, 0x61, 0x62, 0x80, 0x22, 0x5D], "t.json: byte 1: a string that is not valid UTF-8"),
            ([0xFF], "t.json: byte 0: 0xFF cannot start a value"),
        ] as [([UInt8], String)] {
            do {
                _ = try CanonicalJSON.decode(bytes, file: "t.json")
                Issue.record("read \(bytes)")
            } catch {
                #expect(error.description == message)
            }
        }
    }

    // MARK: - Bounds

    @Test func nestsAtMostSixtyFourLevels() throws {
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        _ = try Self.read(deepest)
        #expect(
            throws: CanonicalJSONError(
                file: "t.json", place: "byte 64", message: "nests deeper than 64 arrays and objects")
        ) {
            try Self.read(String(repeating: "[", count: 65) + String(repeating: "]", count: 65))
        }
        // A million opening brackets cost one pass up to level 65, not a million frames.
        #expect(throws: CanonicalJSONError.self) {
            try Self.read(String(repeating: "[{\"a\":", count: 500_000))
        }
    }

    @Test func capsTheText() {
        let limits = CanonicalJSONLimits(maximumBytes: 10)
        #expect(
            throws: CanonicalJSONError(
                file: "t.json", place: "", message: "the text has 11 bytes, more than the 10 allowed")
        ) {
            try Self.read("\"123456789\"", limits: limits)
        }
    }

    @Test func capsStrings() throws {
        let limits = CanonicalJSONLimits(maximumStringBytes: 8)
        #expect(try Self.read("\"12345678\"", limits: limits) == "12345678")
        #expect(throws: CanonicalJSONError(file: "t.json", place: "byte 0", message: "a string longer than 8 bytes")) {
            try Self.read("\"123456789\"", limits: limits)
        }
        // Escapes count once unescaped: eight \n are eight bytes.
        #expect(
            try Self.read("\"" + String(repeating: "\\n", count: 8) + "\"", limits: limits)
                == .string(String(repeating: "\n", count: 8)))
        #expect(
            throws: CanonicalJSONError(file: "t.json", place: "byte 4", message: "a string longer than 1048576 bytes")
        ) {
            try Self.read("[0, \"" + String(repeating: "x", count: (1 << 20) + 1) + "\"]")
        }
    }

    @Test func capsNumbers() throws {
        let sixtyFour = "1." + String(repeating: "0", count: 62)
        #expect(try Self.read(sixtyFour) == .double(1))
        #expect(
            throws: CanonicalJSONError(file: "t.json", place: "byte 0", message: "a number longer than 64 characters")
        ) {
            try Self.read(sixtyFour + "0")
        }
        #expect(
            throws: CanonicalJSONError(file: "t.json", place: "byte 1", message: "a number longer than 64 characters")
        ) {
            try Self.read("[" + String(repeating: "9", count: 1_000_000) + "]")
        }
    }

    // MARK: - Writing

    static let unwritable: [(RuleValue, String)] = [
        (.double(.nan), "the value: NaN has no JSON form"),
        (["a": [1, .double(.infinity)]], "a[1]: infinity has no JSON form"),
        (["meta": ["x": .double(-.infinity)]], "meta.x: -infinity has no JSON form"),
        ([.bytes([0xFF])], "[0]: a byte string that is not UTF-8 has no JSON form"),
    ]

    @Test(arguments: unwritable)
    func refusesWhatJSONCannotHold(value: RuleValue, message: String) {
        do {
            _ = try CanonicalJSON.encode(value)
            Issue.record("wrote \(value)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func writesNoDeeperThanItReads() throws {
        var value: RuleValue = []
        for _ in 1..<64 { value = [value] }
        #expect(try Self.read(Self.text(value)) == value)
        do {
            _ = try CanonicalJSON.encode([value])
            Issue.record("wrote 65 levels")
        } catch {
            #expect(error.message == "nests deeper than 64 arrays and objects")
        }
    }

    @Test func writesTheSameBytesForEqualValuesBuiltInAnyOrder() throws {
        var random = SplitMix64(seed: 7)
        let keys = (0..<200).map { "k\($0)" }
        var first: [String: RuleValue] = [:]
        for key in keys { first[key] = .int(Int64(key.dropFirst())!) }
        var second: [String: RuleValue] = [:]
        for key in keys.shuffled(using: &random) { second[key] = .int(Int64(key.dropFirst())!) }
        #expect(try CanonicalJSON.encode(.table(first)) == CanonicalJSON.encode(.table(second)))
    }
}
