import JunctionCore
import Testing

@Suite struct SemanticVersionTests {
    /// What one text reads as: its parts, pre-release and build, or the error.
    struct Reading: CustomTestStringConvertible, Sendable {
        let text: String
        let expected: Result<Parsed, Failure>
        var testDescription: String { "\"\(text)\"" }

        struct Parsed: Equatable, Sendable {
            let parts: [Int]
            let preRelease: [String]
            let build: [String]
        }

        struct Failure: Error, Equatable, Sendable {
            let problem: String
        }

        /// `text` reads as `parts`, `pre-release` and `build`.
        init(_ text: String, _ parts: [Int], _ preRelease: [String] = [], build: [String] = []) {
            self.text = text
            expected = .success(Parsed(parts: parts, preRelease: preRelease, build: build))
        }

        /// `text` is not a version, for this reason.
        init(_ text: String, error problem: String) {
            self.text = text
            expected = .failure(Failure(problem: problem))
        }
    }

    /// The whole grammar, one row per rule and per mistake; docs/rules.md shows the same
    /// table. Parts are the canonical ones: three at least, trailing zeros dropped.
    static let grammar: [Reading] = [
        // Numeric parts: one to any number; missing ones are zero.
        Reading("6", [6, 0, 0]),
        Reading("6.2", [6, 2, 0]),
        Reading("6.0.1", [6, 0, 1]),
        Reading("6.0.1.4", [6, 0, 1, 4]),
        Reading("1.2.3.4.5.6", [1, 2, 3, 4, 5, 6]),
        Reading("5.2.0.0", [5, 2, 0]),
        Reading("0.0.0", [0, 0, 0]),
        // A leading v.
        Reading("v6.2", [6, 2, 0]),
        Reading("V6.2.1", [6, 2, 1]),
        // Pre-release after "-": identifiers of letters, digits and "-".
        Reading("6.0.0-beta.2", [6, 0, 0], ["beta", "2"]),
        Reading("6.2-rc.1", [6, 2, 0], ["rc", "1"]),
        Reading("1.0.0-x-y.7z", [1, 0, 0], ["x-y", "7z"]),
        Reading("1.0.0--", [1, 0, 0], ["-"]),
        // Build metadata after "+" or in parentheses, ignored when comparing.
        Reading("6.0.1+1234", [6, 0, 1], build: ["1234"]),
        Reading("1.0.0-rc.1+exp.sha.5114f85", [1, 0, 0], ["rc", "1"], build: ["exp", "sha", "5114f85"]),
        Reading("6.0.1 (1234)", [6, 0, 1], build: ["1234"]),
        Reading("6.0.1(1234)", [6, 0, 1], build: ["1234"]),
        Reading("6.0.1-beta (build.7)", [6, 0, 1], ["beta"], build: ["build", "7"]),
        // Leading zeros are allowed and do not count, in parts and numeric identifiers.
        Reading("5.02", [5, 2, 0]),
        Reading("05.2.010", [5, 2, 10]),
        Reading("1.0.0-beta.01", [1, 0, 0], ["beta", "1"]),
        Reading("1.0.0-beta.00", [1, 0, 0], ["beta", "0"]),
        // Spaces and tabs around are ignored.
        Reading("  6.2\t", [6, 2, 0]),
        Reading(" v6.0.1 (99) ", [6, 0, 1], build: ["99"]),
        // Numbers have at most 18 digits (they always fit in an Int).
        Reading("999999999999999999.1", [999_999_999_999_999_999, 1, 0]),
        Reading("1.0.0-000000000000000000000000000001", [1, 0, 0], ["1"]),
        // Everything else is an error that names the place and what was expected there.
        Reading("", error: "it is empty"),
        Reading("   ", error: "it is empty"),
        Reading("v", error: "expected a number at byte 2, found the end"),
        Reading("vv1", error: "expected a number at byte 2, found \"v\""),
        Reading("5..1", error: "expected a number at byte 3, found \".\""),
        Reading("5.", error: "expected a number at byte 3, found the end"),
        Reading(".5", error: "expected a number at byte 1, found \".\""),
        Reading("-1.0.0", error: "expected a number at byte 1, found \"-\""),
        Reading("a.b.c", error: "expected a number at byte 1, found \"a\""),
        Reading("6.0b2", error: "expected \".\", \"-\", \"+\", \"(\" or the end at byte 4, found \"b\""),
        Reading("6.0.1 beta", error: "expected \".\", \"-\", \"+\", \"(\" or the end at byte 7, found \"b\""),
        Reading("6 .2", error: "expected \".\", \"-\", \"+\", \"(\" or the end at byte 3, found \".\""),
        Reading("1.2.3-", error: "expected a pre-release identifier at byte 7, found the end"),
        Reading("1.2.3-a..b", error: "expected a pre-release identifier at byte 9, found \".\""),
        Reading("1.2.3-a_b", error: "expected \"+\", \"(\" or the end at byte 8, found \"_\""),
        Reading("1.2.3+", error: "expected build metadata at byte 7, found the end"),
        Reading("1.2.3+a b", error: "expected the end at byte 9, found \"b\""),
        Reading("6.0.1 (1234", error: "expected \")\" at byte 12, found the end"),
        Reading("6.0.1 ()", error: "expected build metadata at byte 8, found \")\""),
        Reading("6.0.1 (12) (13)", error: "expected the end at byte 12, found \"(\""),
        Reading("6.0.1+12 (13)", error: "expected the end at byte 10, found \"(\""),
        Reading("6.0\n", error: "expected \".\", \"-\", \"+\", \"(\" or the end at byte 4, found U+000A"),
        Reading("6.０", error: "expected a number at byte 3, found \"０\""),
        Reading("1234567890123456789", error: "the number at byte 1 has more than 18 digits"),
        Reading("1.99999999999999999999999", error: "the number at byte 3 has more than 18 digits"),
        Reading("1.0.0-beta.1234567890123456789", error: "the number at byte 12 has more than 18 digits"),
        Reading(String(repeating: "1.", count: 128) + "1", error: "it is 257 bytes long; a version has at most 256"),
        // The capabilities fuzz target's finding: 256 bytes as written, 260 written in full
        // (`64` is `64.0.0`), so what a capability file read it could not write back.
        Reading(
            "64-" + String(repeating: "b", count: 253),
            error: "written in full it is 260 bytes long; a version has at most 256"),
    ]

    @Test(arguments: grammar)
    func readsTheGrammar(_ row: Reading) {
        let actual: Result<Reading.Parsed, Reading.Failure>
        do {
            let version = try SemanticVersion(parsing: row.text)
            actual = .success(
                Reading.Parsed(parts: version.parts, preRelease: version.preRelease, build: version.build))
        } catch {
            actual = .failure(Reading.Failure(problem: error.problem))
        }
        #expect(actual == row.expected)
        // The failable initializer is the same parser.
        #expect((SemanticVersion(row.text) == nil) == ((try? row.expected.get()) == nil))
    }

    /// The message names the text (cut when long) and what was expected, and shows how
    /// versions are written.
    @Test func explainsWhatIsNotAVersion() throws {
        let error = try #require(throws: VersionSyntaxError.self) { try SemanticVersion(parsing: "5..1") }
        #expect(
            error.description
                == "\"5..1\" is not a version: expected a number at byte 3, found \".\"; "
                + "versions read like 6.2, v6.0.1, 6.0.1-beta.2 or 6.0.1 (1234)")
        #expect(error.offset == 2 && error.text == "5..1")
    }

    /// Text of any length costs no more than the bound: the length is checked before a
    /// byte is read, and the message quotes 40 characters of it.
    @Test func refusesLongTextBeforeReadingIt() throws {
        let long = String(repeating: "1", count: 1_000_000)
        let error = try #require(throws: VersionSyntaxError.self) { try SemanticVersion(parsing: long) }
        #expect(
            error.description
                == "\"\(String(repeating: "1", count: 40))…\" is not a version: it is 1000000 bytes long; "
                + "a version has at most 256; versions read like 6.2, v6.0.1, 6.0.1-beta.2 or 6.0.1 (1234)")
        #expect(error.offset == 256)
    }

    @Test(arguments: [
        ("5.2.0", "5.10.1"),  // numeric, not textual: 2 < 10
        ("1.0.0-alpha", "1.0.0-alpha.1"),  // §11 example, in order
        ("1.0.0-alpha.1", "1.0.0-alpha.beta"),
        ("1.0.0-alpha.beta", "1.0.0-beta"),
        ("1.0.0-beta", "1.0.0-beta.2"),
        ("1.0.0-beta.2", "1.0.0-beta.11"),
        ("1.0.0-beta.11", "1.0.0-rc.1"),
        ("1.0.0-rc.1", "1.0.0"),
        ("1.9.9", "2"),
        ("5.2", "5.2.1"),
        ("6.0.1", "6.0.1.4"),  // a fourth part
        ("6.0.1.4", "6.0.1.10"),
        ("6.0.1.9", "6.0.2"),
        ("6.0.1.4-beta", "6.0.1.4"),
        ("6.2-beta.2", "6.2.0"),
        ("1.0.0-rc10", "1.0.0-rc2"),  // words compare in ASCII order, digits and all
        ("1.0.0-Beta", "1.0.0-beta"),  // ASCII: upper case first
        ("1.0.0-99999999999999999", "1.0.0-999999999999999999"),  // numbers by value, not as text
        ("1.0.0-999999999999999999", "1.0.0-a"),  // a number before a word
        ("v5.9", "5.10"),
    ])
    func ordersAsSemanticVersioningSays(_ lower: String, _ higher: String) throws {
        let a = try #require(SemanticVersion(lower))
        let b = try #require(SemanticVersion(higher))
        #expect(a < b)
        #expect(!(b < a))
        #expect(a != b)
    }

    /// `==` agrees with the order, and the hash with `==`: missing parts are zero, leading
    /// zeros and build metadata do not count.
    @Test(arguments: [
        ("5", "5.0.0"), ("5.2", "5.2.0"), ("5.2", "5.2.0.0"), ("1.0.0+build.5", "1.0.0+other"), ("0.0.0", "0.0"),
        ("6.0.1 (1234)", "6.0.1+99"), ("v6.0.1", "6.0.1"), ("5.02", "5.2"), ("1.0-beta.01", "1.0.0-beta.1"),
        ("6.0.1.4.0", "6.0.1.4"),
    ])
    func treatsMissingPartsAsZeroAndIgnoresBuildMetadata(_ a: String, _ b: String) throws {
        let x = try #require(SemanticVersion(a))
        let y = try #require(SemanticVersion(b))
        #expect(x == y)
        #expect(!(x < y) && !(y < x))
        #expect(x.hashValue == y.hashValue)
    }

    /// Versions made in code compare as parsed ones do, whatever zeros they carry.
    @Test func comparesVersionsMadeInCodeAlike() throws {
        var made = SemanticVersion(5, 2, preRelease: ["beta", "01"])
        made.trailingParts = [0, 0]
        let parsed = try SemanticVersion(parsing: "5.2-beta.1")
        #expect(made == parsed && made.hashValue == parsed.hashValue)
        #expect(SemanticVersion(parts: [6, 0, 1, 4, 0]) == SemanticVersion(parts: [6, 0, 1, 4]))
        #expect(SemanticVersion(parts: [6, 0, 1, 4, 0]).trailingParts == [4])
        #expect(SemanticVersion(parts: [7]) == SemanticVersion(7))
    }

    @Test(arguments: [
        ("5.2", "5.2.0"), ("6.0.1.4", "6.0.1.4"), ("6.0.1.4.0", "6.0.1.4"), ("5.2.0.0", "5.2.0"),
        ("1.0.0-rc.1+exp.sha.5114f85", "1.0.0-rc.1+exp.sha.5114f85"), ("v6.2 (77)", "6.2.0+77"),
        ("5.02-beta.01", "5.2.0-beta.1"),
    ])
    func printsItsCanonicalForm(_ text: String, _ canonical: String) throws {
        let version = try SemanticVersion(parsing: text)
        #expect(version.description == canonical)
        // The canonical form reads back as the same version, build and all.
        let again = try SemanticVersion(parsing: canonical)
        #expect(again == version && again.build == version.build && again.description == canonical)
    }
}
