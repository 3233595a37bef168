import JunctionAuthoring
@testable import JunctionCore
import Testing

/// What a route regex refuses when the routes load — constructs that need backtracking,
/// that a linear matcher has no use for, or that are not supported — and how it says so:
/// what, where and what to write instead.
@Suite struct RouteRegexRefusalTests {
    static let backtracking = "needs backtracking, which routes do not allow"

    @Test(arguments: [
        // Backtracking constructs.
        RefusedRegex(
            #"(a)\1"#,
            #"back-reference "\1" at offset 3 \#(backtracking); repeat the group's pattern instead, or compare the values in a rule"#,
            at: 3),
        RefusedRegex(
            #"(a)\12"#,
            #"back-reference "\12" at offset 3 \#(backtracking); repeat the group's pattern instead, or compare the values in a rule"#,
            at: 3),
        RefusedRegex(
            #"(?<x>a)\k<x>"#,
            #"back-reference "\k" at offset 7 \#(backtracking); repeat the group's pattern instead, or compare the values in a rule"#,
            at: 7),
        RefusedRegex(
            #"(?P<x>a)(?P=x)"#,
            #"back-reference "(?P=" at offset 8 \#(backtracking); repeat the group's pattern instead, or compare the values in a rule"#,
            at: 8),
        RefusedRegex(
            "a(?=b)", #"lookahead "(?=" at offset 1 \#(backtracking); describe the whole segment without it"#, at: 1),
        RefusedRegex(
            "(?!a)b", #"lookahead "(?!" at offset 0 \#(backtracking); describe the whole segment without it"#, at: 0),
        RefusedRegex(
            "(?<=a)b", #"lookbehind "(?<=" at offset 0 \#(backtracking); describe the whole segment without it"#, at: 0),
        RefusedRegex(
            "(?<!a)b", #"lookbehind "(?<!" at offset 0 \#(backtracking); describe the whole segment without it"#, at: 0),
        RefusedRegex(
            "(?>a+)b",
            #"atomic group "(?>" at offset 0 is not supported; write "(?:" — a route regex never backtracks, so it needs none"#,
            at: 0),
        RefusedRegex(
            "a*+b",
            #"possessive quantifier "*+" at offset 1 is not supported; drop the "+" — a route regex never backtracks, so it needs none"#,
            at: 1),
        RefusedRegex(
            "a{2,3}+",
            #"possessive quantifier "{2,3}+" at offset 1 is not supported; drop the "+" — a route regex never backtracks, so it needs none"#,
            at: 1),
        // Unsupported syntax.
        RefusedRegex(
            "(?i)abc", #"inline flags "(?i" at offset 0 are not supported; spell the cases out, e.g. "[Aa]""#, at: 0),
        RefusedRegex(
            "a(?-i:b)", #"inline flags "(?-" at offset 1 are not supported; spell the cases out, e.g. "[Aa]""#, at: 1),
        RefusedRegex(
            "(?#note)a", #"group syntax "(?#" at offset 0 is not supported; use "(…)", "(?:…)" or "(?<name>…)""#, at: 0),
        RefusedRegex(
            "(?R)", #"group syntax "(?R" at offset 0 is not supported; use "(…)", "(?:…)" or "(?<name>…)""#, at: 0),
        RefusedRegex(
            "(?<1x>a)",
            #"the group name at offset 3 must be letters, digits and "_", not starting with a digit, and end with ">": "(?<name>…)""#,
            at: 3),
        RefusedRegex(
            "(?<x a)",
            #"the group name at offset 3 must be letters, digits and "_", not starting with a digit, and end with ">": "(?<name>…)""#,
            at: 3),
        RefusedRegex(
            #"\bword\b"#,
            #"assertion "\b" at offset 0 is not supported; describe the whole segment instead (it is matched whole: ^ and $ are implied)"#,
            at: 0),
        RefusedRegex(
            #"\Aa\z"#,
            #"assertion "\A" at offset 0 is not supported; describe the whole segment instead (it is matched whole: ^ and $ are implied)"#,
            at: 0),
        RefusedRegex(
            #"\p{L}+"#,
            #"Unicode property "\p" at offset 0 is not supported; list the characters as ranges in a class, e.g. "[a-zà-ÿ]""#,
            at: 0),
        RefusedRegex(
            #"a\q"#,
            #"unknown escape "\q" at offset 1; escape only punctuation, or use \d \w \s \D \W \S \t \n \v \f \r \xHH \u{HHHH}"#,
            at: 1),
        RefusedRegex(
            #"\0"#,
            #"unknown escape "\0" at offset 0; escape only punctuation, or use \d \w \s \D \W \S \t \n \v \f \r \xHH \u{HHHH}"#,
            at: 0),
        RefusedRegex(
            #"\é"#,
            #"unknown escape "\é" at offset 0; escape only punctuation, or use \d \w \s \D \W \S \t \n \v \f \r \xHH \u{HHHH}"#,
            at: 0),
        RefusedRegex(
            #"é\Q"#,
            #"unknown escape "\Q" at offset 1; escape only punctuation, or use \d \w \s \D \W \S \t \n \v \f \r \xHH \u{HHHH}"#,
            at: 2),
        RefusedRegex(#"a\"#, #""\" at the end of the regex escapes nothing; write "\\" for the character"#, at: 1),
        RefusedRegex(#"\xZZ"#, #""\x" at offset 0 needs 2 hex digits or "{…}", e.g. "\x41" or "\x{1F600}""#, at: 0),
        RefusedRegex(#"\u{12"#, #""\u{" at offset 0 needs hex digits and "}", e.g. "\u{1F600}""#, at: 0),
        RefusedRegex(#"\u{D800}"#, #""\u{D800}" at offset 0 is not a Unicode scalar value"#, at: 0),
        RefusedRegex(
            "[[:alpha:]]",
            #""[" inside the class at offset 1; write "\[" for the character (nested classes and [:name:] are not supported)"#,
            at: 1),
        RefusedRegex(
            "[a&&b]",
            #""&&" inside the class at offset 2 is a set operation, which is not supported; write "\&" for the character"#,
            at: 2),
        RefusedRegex(
            "[a--b]",
            #""--" inside the class at offset 2 is a set operation, which is not supported; write "\-" for the character"#,
            at: 2),
        // Malformed.
        RefusedRegex(
            "(a", #"missing ")" for the group opened at offset 0; close it, or write "\(" for the character"#, at: 0),
        RefusedRegex(
            "a(b(c)", #"missing ")" for the group opened at offset 1; close it, or write "\(" for the character"#,
            at: 1),
        RefusedRegex("a)", #"unbalanced ")" at offset 1; remove it or write "\)" for the character"#, at: 1),
        RefusedRegex(
            "[a-z", #"missing "]" for the class opened at offset 0; close it, or write "\[" for the character"#, at: 0),
        RefusedRegex(
            "é[^a", #"missing "]" for the class opened at offset 1; close it, or write "\[" for the character"#, at: 2),
        // Issue 13: a class left open takes the ")" after it as a character; what is
        // missing is its "]", named at the "[".
        RefusedRegex(
            "[A-Z{2}", #"missing "]" for the class opened at offset 0; close it, or write "\[" for the character"#,
            at: 0),
        RefusedRegex(
            "([A-Z{2})", #"missing "]" for the class opened at offset 1; close it, or write "\[" for the character"#,
            at: 1),
        RefusedRegex(
            "(a|[b)c", #"missing "]" for the class opened at offset 3; close it, or write "\[" for the character"#,
            at: 3),
        RefusedRegex(
            "((a)", #"missing ")" for the group opened at offset 0; close it, or write "\(" for the character"#, at: 0),
        RefusedRegex("[]a]", #"empty class "[]" at offset 0; write "\]" for the character"#, at: 0),
        RefusedRegex("[^]", #"empty class "[^]" at offset 0; write "\]" for the character"#, at: 0),
        RefusedRegex("[z-a]", #"range "z-a" at offset 1 is reversed; write "a-z""#, at: 1),
        RefusedRegex(
            #"[\d-z]"#, #"range at offset 1 starts with "\d", a class, not a character; write "\-" for the character"#,
            at: 1),
        RefusedRegex(
            #"[a-\w]"#, #"range at offset 1 ends with "\w", a class, not a character; write "\-" for the character"#,
            at: 1),
        RefusedRegex("*a", #"quantifier "*" at offset 0 has nothing to repeat; write "\*" for the character"#, at: 0),
        RefusedRegex("a|+", #"quantifier "+" at offset 2 has nothing to repeat; write "\+" for the character"#, at: 2),
        RefusedRegex(
            "(?)", #"group syntax "(?)" at offset 0 is not supported; use "(…)", "(?:…)" or "(?<name>…)""#, at: 0),
        RefusedRegex(
            "{2}", #"quantifier "{2}" at offset 0 has nothing to repeat; write "\{" for the character"#, at: 0),
        RefusedRegex(
            "^*a", #"quantifier "*" at offset 1 has nothing to repeat (an anchor matches no character); remove it"#,
            at: 1),
        RefusedRegex(
            "a**", #"quantifier "*" at offset 2 follows another quantifier; wrap the repeated part in "(?:…)" first"#,
            at: 2),
        RefusedRegex(
            "a{2}{3}",
            #"quantifier "{3}" at offset 4 follows another quantifier; wrap the repeated part in "(?:…)" first"#, at: 4),
        RefusedRegex(
            "a*??", #"quantifier "?" at offset 3 follows another quantifier; wrap the repeated part in "(?:…)" first"#,
            at: 3),
        RefusedRegex(
            "a{", #""{" at offset 1 starts no repetition; write {m}, {m,} or {m,n}, or "\{" for the character"#, at: 1),
        RefusedRegex(
            "a{2", #""{" at offset 1 starts no repetition; write {m}, {m,} or {m,n}, or "\{" for the character"#, at: 1),
        RefusedRegex(
            "a{,}", #""{" at offset 1 starts no repetition; write {m}, {m,} or {m,n}, or "\{" for the character"#, at: 1
        ),
        RefusedRegex(
            "a{x}", #""{" at offset 1 starts no repetition; write {m}, {m,} or {m,n}, or "\{" for the character"#, at: 1
        ),
        RefusedRegex(
            "a{2,1}", #"repetition "{2,1}" at offset 1 has its minimum above its maximum; write "{1,2}""#, at: 1),
        // Limits.
        RefusedRegex(
            "a{1001}",
            #"repetition "{1001}" at offset 1 counts above the limit of 1000; use "*" or "+" for any number"#, at: 1),
        RefusedRegex(
            "a{0,99999999999999999999}",
            #"repetition "{0,99999999999999999999}" at offset 1 counts above the limit of 1000; use "*" or "+" for any number"#,
            at: 1),
        RefusedRegex(
            "(a{100}){30}",
            #"the regex needs more than 2048 instructions (the limit) by offset 8; use smaller counts, or "*" and "+""#,
            at: 8),
        RefusedRegex(
            "x(a{1000}b{1000}c{100})",
            #"the regex needs more than 2048 instructions (the limit) by offset 17; use smaller counts, or "*" and "+""#,
            at: 17),
        RefusedRegex(
            String(repeating: "(", count: 65) + String(repeating: ")", count: 65),
            #"groups nest more than 64 deep at offset 64; remove some"#, at: 64),
    ])
    func refusesWithWhatWhereAndWhatToDo(_ row: RefusedRegex) {
        let error = #expect(throws: PatternSyntaxError.self) { try RouteRegex(row.regex) }
        #expect(error?.message == row.message)
        #expect(error?.offset == row.offset)
    }

    /// Through a route table the error names the parameter and the column of the problem.
    @Test func reportsARefusedRegexAtItsColumnInTheRouteFile() {
        let error = #expect(throws: RouteTableError.self) {
            try RouteTable.load(
                text: "routes:\n  - name: p\n    pattern: myapp://k/:p((a)\\1)/end", file: "routes.yaml")
        }
        #expect(
            error?.diagnostics.map(\.description) == [
                #"routes.yaml:3:30: error: invalid pattern "myapp://k/:p((a)\1)/end": regex "(a)\1" of parameter "p": back-reference "\1" at offset 3 needs backtracking, which routes do not allow; repeat the group's pattern instead, or compare the values in a rule"#
            ])
    }

    /// `:p((a+)+b)` used to load and then take 30 s to turn away 20 `a`s; it loads and
    /// runs in linear time now, and so do the rest of the usual suspects.
    @Test(arguments: ["(a+)+b", "(a|a)*b", "(a*)*b", "(a|aa)+$", "(.*a){12}", "([ab]?){30}a{30}"])
    func acceptsWhatOnlyABacktrackerFindsSlow(regex: String) throws {
        _ = try RouteTable.load(text: "routes:\n  - name: p\n    pattern: myapp://k/:p(\(regex))", file: "routes.yaml")
    }

    @Test(arguments: [
        // The regex runs to the end of the pattern: what is missing is named, where it was opened.
        (
            "/e/:n([0-9)",
            #"t.yaml:1:36: error: invalid pattern "/e/:n([0-9)": regex "[0-9)" of parameter "n": missing "]" for the class opened at offset 0; close it, or write "\[" for the character"#
        ),
        (
            "/e/:n(a",
            #"t.yaml:1:35: error: invalid pattern "/e/:n(a": regex "a" of parameter "n": missing ")" to end the regex"#
        ),
        (
            "/e/:n((a)/x",
            #"t.yaml:1:35: error: invalid pattern "/e/:n((a)/x": regex "(a)/x" of parameter "n": missing ")" to end the regex"#
        ),
        (
            "/e/:n(é(a|b)(c",
            #"t.yaml:1:42: error: invalid pattern "/e/:n(é(a|b)(c": regex "é(a|b)(c" of parameter "n": missing ")" for the group opened at offset 6, and one to end the regex"#
        ),
        (
            "/e/:n(((a",
            #"t.yaml:1:37: error: invalid pattern "/e/:n(((a": regex "((a" of parameter "n": missing ")" for the groups opened at offsets 0 and 1, and one to end the regex"#
        ),
        // Regression (issue 13): a class left open takes the regex's ")" and runs on into
        // the next segments; what is missing is its "]", not a ")" at the end.
        (
            "/x/:code([A-Z{2})/:y([0-9])",
            #"t.yaml:1:39: error: invalid pattern "/x/:code([A-Z{2})/:y([0-9])": regex "[A-Z{2}" of parameter "code": missing "]" for the class opened at offset 0; close it, or write "\[" for the character"#
        ),
        (
            "/x/:c([A-Z)/b]",
            #"t.yaml:1:36: error: invalid pattern "/x/:c([A-Z)/b]": regex "[A-Z" of parameter "c": missing "]" for the class opened at offset 0; close it, or write "\[" for the character"#
        ),
        (
            "/x/:c([A-Z{2})(/b)",
            #"t.yaml:1:36: error: invalid pattern "/x/:c([A-Z{2})(/b)": regex "[A-Z{2}" of parameter "c": missing "]" for the class opened at offset 0; close it, or write "\[" for the character"#
        ),
        // The host read as a path takes a regex too, and says the same.
        (
            "myapp://:n([0-9)/x",
            #"t.yaml:1:41: error: invalid pattern "myapp://:n([0-9)/x": regex "[0-9" of parameter "n": missing "]" for the class opened at offset 0; close it, or write "\[" for the character"#
        ),
        // A class may hold parentheses and "/" without ending the regex or the segment.
        (
            "/e/:n([(/]+)/:m(x)(/",
            #"t.yaml:1:48: error: invalid pattern "/e/:n([(/]+)/:m(x)(/": optional group is not closed; add ")""#
        ),
    ])
    func namesWhatIsMissingWhenARegexIsNotClosed(pattern: String, expected: String) {
        let error = #expect(throws: RouteTableError.self) {
            try RouteTable.load(text: "routes: [{name: a, pattern: '\(pattern)'}]", file: "t.yaml")
        }
        #expect(error?.diagnostics.map(\.description) == [expected])
    }

    @Test func splitsSegmentsAfterARegexWhoseClassHoldsAParenthesis() throws {
        let table = try RouteTable.make([("paren", "/e/:n([(]+)/end")])
        #expect(try table.match("x:/e/((/end")?.parameters["n"] == "((")
        // A class that holds ")" and "/" and compiles is a class, not a missing "]".
        let closing = try RouteTable.make([("closing", "/e/:n([)/]+)/end")])
        #expect(try closing.match("x:/e/)%2F)/end")?.parameters["n"] == ")/)")
    }
}
