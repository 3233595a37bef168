@testable import JunctionCore
import Testing

/// What a route regex matches: every construct of its syntax, always against the whole
/// segment, over Unicode scalars.
@Suite struct RouteRegexMatchingTests {
    @Test(arguments: [
        // Literals and escaped metacharacters.
        RegexCase("abc", "abc", true),
        RegexCase("abc", "ab", false),
        RegexCase("abc", "abcd", false),  // whole segment only: no search inside it
        RegexCase("abc", "xabc", false),
        RegexCase(#"a\.b"#, "a.b", true),
        RegexCase(#"a\.b"#, "axb", false),
        RegexCase(#"\(\)\[\]\{\}"#, "()[]{}", true),
        RegexCase(#"\\"#, #"\"#, true),
        RegexCase(#"a\/b"#, "a/b", true),  // a decoded %2F
        RegexCase(#"\-\*\+\?\|\^\$"#, "-*+?|^$", true),
        RegexCase(#"a\ b"#, "a b", true),
        RegexCase("a]b}", "a]b}", true),  // a lone "]" or "}" is literal
        RegexCase(#"\x41\x{1F600}\u00E9\u{E9}"#, "A😀éé", true),
        RegexCase(#"\t\n\r\f\v"#, "\t\n\r\u{0C}\u{0B}", true),
        RegexCase("café", "café", true),
        RegexCase("café", "cafe\u{301}", false),  // scalars compare exactly: no normalisation
        RegexCase("😀", "😀", true),
        // The dot: any one scalar but a line break.
        RegexCase(".", "a", true),
        RegexCase(".", "é", true),
        RegexCase(".", "😀", true),  // four UTF-8 bytes, one scalar
        RegexCase(".", "e\u{301}", false),  // two scalars
        RegexCase("..", "e\u{301}", true),
        RegexCase(".", "", false),
        RegexCase(".", "\n", false),
        RegexCase(".", "\r", false),
        RegexCase(".", "\u{2028}", false),
        RegexCase(".", "\t", true),
        RegexCase("...", "a😀b", true),
        // Classes, ranges, negation, escapes and shorthands inside.
        RegexCase("[a-z0-9_]+", "user_42", true),
        RegexCase("[a-z0-9_]+", "User", false),
        RegexCase("[^/]+", "a b.c", true),
        RegexCase("[^/]+", "a/b", false),
        RegexCase("[^a]", "é", true),  // a negated class takes a multi-byte character whole
        RegexCase("[^a]", "😀", true),
        RegexCase("[^a]", "ab", false),
        RegexCase("[é😀]", "😀", true),
        RegexCase("[à-ÿ]+", "éü", true),
        RegexCase(#"[\]\[\-\\]+"#, #"][-\"#, true),
        RegexCase("[a-]", "-", true),  // "-" last is literal
        RegexCase("[-a]", "-", true),  // and first
        RegexCase("[a-c-e]", "-", true),  // and right after a range
        RegexCase("[a-c-e]", "d", false),
        RegexCase(#"[\d.]+"#, "3.14", true),
        RegexCase(#"[\w-]+"#, "a-b_c", true),
        RegexCase(#"[\s,]+"#, " ,\t", true),
        RegexCase(#"[^\d]"#, "x", true),
        RegexCase(#"[^\d]"#, "7", false),
        RegexCase(#"[\D]"#, "é", true),
        RegexCase(#"[\x41-\x43]+"#, "ABC", true),
        RegexCase("[.]", "x", false),  // "." in a class is a dot
        RegexCase("[.]", ".", true),
        // Shorthands are ASCII.
        RegexCase(#"\d+"#, "0123456789", true),
        RegexCase(#"\d"#, "٣", false),  // ARABIC-INDIC DIGIT THREE
        RegexCase(#"\w+"#, "aZ0_", true),
        RegexCase(#"\w"#, "é", false),
        RegexCase(#"\W"#, "é", true),
        RegexCase(#"\s+"#, " \t\n\r\u{0B}\u{0C}", true),
        RegexCase(#"\s"#, "\u{A0}", false),  // NO-BREAK SPACE is not ASCII
        RegexCase(#"\S"#, "\u{A0}", true),
        RegexCase(#"\D\W\S"#, "x-x", true),
        RegexCase(#"\D"#, "5", false),
        // Quantifiers, counted and lazy.
        RegexCase("a*", "", true),
        RegexCase("a*", "aaa", true),
        RegexCase("a+", "", false),
        RegexCase("a+", "aaa", true),
        RegexCase("ab?c", "ac", true),
        RegexCase("ab?c", "abbc", false),
        RegexCase("a{3}", "aaa", true),
        RegexCase("a{3}", "aa", false),
        RegexCase("a{3}", "aaaa", false),
        RegexCase("a{2,}", "a", false),
        RegexCase("a{2,}", "aaaaa", true),
        RegexCase("a{2,3}", "aaa", true),
        RegexCase("a{2,3}", "aaaa", false),
        RegexCase("a{,2}", "", true),
        RegexCase("a{,2}", "aaa", false),
        RegexCase("a{0}", "", true),
        RegexCase("a{0}b", "b", true),
        RegexCase("a{1000}", String(repeating: "a", count: 1000), true),
        RegexCase("a*?b+?c??d{2}?e{1,}?f{1,2}?", "bddef", true),
        RegexCase("é{2}", "éé", true),  // a quantifier repeats the whole scalar
        RegexCase("😀+", "😀😀😀", true),
        RegexCase("(ab)+", "ababab", true),
        RegexCase("(ab)+", "aba", false),
        RegexCase("(a|b){2,3}c", "ababc", false),
        RegexCase("(a|b){2,3}c", "bac", true),
        // Alternation and groups.
        RegexCase("cat|dog", "dog", true),
        RegexCase("cat|dog", "catdog", false),
        RegexCase("a|", "", true),  // an empty alternative
        RegexCase("|a", "a", true),
        RegexCase("()", "", true),
        RegexCase("(?:x|y)z", "yz", true),
        RegexCase(#"(?<year>\d{4})-(?<month>\d{2})"#, "2024-05", true),
        RegexCase(#"(?P<id>\d+)"#, "42", true),
        RegexCase("((a|b)(c|d))+", "adbc", true),
        RegexCase("(a*)*", "aaa", true),  // an empty-width loop ends
        RegexCase("(a*)+b", "b", true),
        RegexCase("(|a)+", "aa", true),
        // Anchors: redundant at the ends, exact elsewhere.
        RegexCase("^abc$", "abc", true),
        RegexCase("^$", "", true),
        RegexCase("^", "", true),
        RegexCase("a^b", "ab", false),  // "^" after a character never holds
        RegexCase("a$b", "ab", false),
        RegexCase("(^a|b)+", "ab", true),
        RegexCase("(^a|b)+", "ba", false),
        RegexCase("(a$|b)+", "ba", true),
        RegexCase("(a$|b)+", "ab", false),
        RegexCase("x(y|$)", "x", true),
        // Empty segments (a parameter never gets one, but the regex answers).
        RegexCase("a?", "", true),
        RegexCase("a", "", false),
        RegexCase("[^a]*", "", true),
        // Real routes.
        RegexCase("[0-9]+", "12", true),
        RegexCase("[A-Z]{2}[0-9]{6}", "AB123456", true),
        RegexCase("[A-Z]{2}[0-9]{6}", "AB12345", false),
        RegexCase(#"v\d+(\.\d+)?"#, "v2.10", true),
        RegexCase(#"[^/.]+\.json"#, "data.json", true),
        RegexCase(#"[^/.]+\.json"#, "a.b.json", false),
        RegexCase("[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}", "0f8fad5b-d9cb-469f-a165-70867728950e", true),
    ])
    func matchesTheWholeSegment(_ row: RegexCase) throws {
        let regex = try RouteRegex(row.regex)
        #expect(regex.matchesWhole(row.segment) == row.matches)
        // The byte entry point, which the matcher calls, answers the same.
        var segment = row.segment
        #expect(segment.withUTF8 { regex.matchesWhole($0) } == row.matches)
    }

    @Test func readsBytesThatAreNotUTF8AsReplacementCharacters() throws {
        let dot = try RouteRegex("a.b")
        let invalid: [[UInt8]] = [[0x61, 0xFF, 0x62], [0x61, 0xC3, 0x62], [0x61, 0xED, 0xA0, 0x80, 0x62]]
        let answers = invalid.map { bytes in bytes.withUnsafeBufferPointer { dot.matchesWhole($0) } }
        // One replacement per byte that starts no valid sequence: the surrogate's three bytes are three.
        #expect(answers == [true, true, false])
        let three = try RouteRegex("a...b")
        #expect([UInt8]([0x61, 0xED, 0xA0, 0x80, 0x62]).withUnsafeBufferPointer { three.matchesWhole($0) })
        let truncated = try RouteRegex("a\u{FFFD}")
        #expect([UInt8]([0x61, 0xF0, 0x9F]).withUnsafeBufferPointer { truncated.matchesWhole($0) } == false)
    }

    @Test func keepsTheSourceAndAProgramWithinTheLimit() throws {
        let regex = try RouteRegex(#"\d{1,1000}"#)
        #expect(regex.source == #"\d{1,1000}"#)
        #expect(regex.programSize == 2000)  // 1 + 999 × (split + set) + match
        #expect(try RouteRegex("(){1000}").programSize == 1)  // an empty body repeats to nothing
    }
}
