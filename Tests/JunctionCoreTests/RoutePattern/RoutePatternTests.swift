import JunctionAuthoring
@testable import JunctionCore
import Testing

/// How a pattern's optional groups expand, in both spellings — `(/segment)` after a segment
/// and JLRoutes' `(segment/)` after a "/" — and how a group that could be read two ways,
/// or that would make `//`, is refused at its column.
@Suite struct RoutePatternTests {
    /// The expansions of `pattern`, each written back as a path.
    static func expansions(of pattern: String) throws -> [String] {
        try RoutePattern(pattern, hostAsPath: .auto).expansions.map { expansion in
            "/"
                + expansion.map { segment in
                    switch segment {
                    case .constant(let text): return text
                    case .parameter(let name, let regex): return ":\(name)" + (regex.map { "(\($0))" } ?? "")
                    case .wildcard: return "*"
                    case .catchAll: return "**"
                    }
                }.joined(separator: "/")
        }
    }

    @Test(arguments: [
        // JLRoutes' README.
        ("/the(/foo/:a)(/bar/:b)", ["/the", "/the/foo/:a", "/the/bar/:b", "/the/foo/:a/bar/:b"]),
        // JLRoutes' tests: four routes each.
        (
            "/path/:thing(/new)(/anotherpath/:anotherthing)",
            [
                "/path/:thing", "/path/:thing/new", "/path/:thing/anotherpath/:anotherthing",
                "/path/:thing/new/anotherpath/:anotherthing",
            ]
        ),
        (
            "/(rest/)(app/):object/:id",
            ["/:object/:id", "/rest/:object/:id", "/app/:object/:id", "/rest/app/:object/:id"]
        ),
        (
            "/(rest/):object/(app/):id",
            ["/:object/:id", "/rest/:object/:id", "/:object/app/:id", "/rest/:object/app/:id"]
        ),
        (
            "/required/:requiredParam(/optional/:optionalParam)(/moreOptional/:moreOptionalParam)",
            [
                "/required/:requiredParam", "/required/:requiredParam/optional/:optionalParam",
                "/required/:requiredParam/moreOptional/:moreOptionalParam",
                "/required/:requiredParam/optional/:optionalParam/moreOptional/:moreOptionalParam",
            ]
        ),
        // A regex, then a group; a regex that starts with an escaped "/".
        ("/p/:id([0-9]+)(/edit)", ["/p/:id([0-9]+)", "/p/:id([0-9]+)/edit"]),
        (#"/p/:id(\/x)"#, [#"/p/:id(\/x)"#]),
        (#"/p/:id((/)x)"#, ["/p/:id((/)x)"]),
        // Nesting, in each spelling and across them.
        ("/n(/a(/b))", ["/n", "/n/a", "/n/a/b"]),
        ("/(a/(b/))c", ["/c", "/a/c", "/a/b/c"]),
        ("/x(/a/(b/)c)", ["/x", "/x/a/c", "/x/a/b/c"]),
        // Last, first, before a segment: never "//", and a trailing "/" is the one a pattern ignores.
        ("/a/(b/)", ["/a", "/a/b"]),
        ("/(b/)", ["/", "/b"]),
        ("/a(/b)/c", ["/a/c", "/a/b/c"]),
        ("/a/(b/)**", ["/a/**", "/a/b/**"]),
        // The host read as a path, with a group after it, a regex on it, or the path form.
        ("myapp://user(/:id)", ["/user", "/user/:id"]),
        ("myapp://:id([0-9]+)(/edit)", ["/:id([0-9]+)", "/:id([0-9]+)/edit"]),
        (#"myapp://:id(a\.b)"#, [#"/:id(a\.b)"#]),
        ("myapp://(rest/):id", ["/:id", "/rest/:id"]),
        (
            "myapp://(rest/)(app/):object/:id",
            ["/:object/:id", "/rest/:object/:id", "/app/:object/:id", "/rest/app/:object/:id"]
        ),
        ("myapp://(/a)", ["/", "/a"]),
    ])
    func expandsEachSpellingOfOptionalGroups(_ pattern: String, _ expected: [String]) throws {
        #expect(try Self.expansions(of: pattern) == expected)
    }

    /// Through a route table, so the column is checked: `pattern` starts at column 30.
    @Test(arguments: [
        // "(/" after a parameter is a group, never a regex: what would be ambiguous is refused.
        (
            "/a/:p(/)",
            #"t.yaml:1:35: error: invalid pattern "/a/:p(/)": empty optional group "(/)"; remove it, or write "(/segment)"; a regex that starts with "/" is written ":p(\/)""#
        ),
        (
            "/a/:p(/[a-z]+)",
            #"t.yaml:1:37: error: invalid pattern "/a/:p(/[a-z]+)": "[" in the optional group after ":p"; "(/" after a parameter starts a group — write a regex that starts with "/" as ":p(\/…)", or the character as "%5B""#
        ),
        (
            "/a/:p(/.+)",
            #"t.yaml:1:38: error: invalid pattern "/a/:p(/.+)": "+" in the optional group after ":p"; "(/" after a parameter starts a group — write a regex that starts with "/" as ":p(\/…)", or the character as "%2B""#
        ),
        (
            "/a/:p(/b(/c$))",
            #"t.yaml:1:41: error: invalid pattern "/a/:p(/b(/c$))": "$" in the optional group after ":p"; "(/" after a parameter starts a group — write a regex that starts with "/" as ":p(\/…)", or the character as "%24""#
        ),
        (
            "myapp://:id(/[0-9]+)",
            #"t.yaml:1:43: error: invalid pattern "myapp://:id(/[0-9]+)": "[" in the optional group after ":id"; "(/" after a parameter starts a group — write a regex that starts with "/" as ":id(\/…)", or the character as "%5B""#
        ),
        // A spelling that would make "//" in some expansion.
        (
            "/a/(/b)",
            #"t.yaml:1:33: error: invalid pattern "/a/(/b)": "(/" right after "/" makes an empty segment ("//"); after "/" an optional group ends with "/": "(segment/)""#
        ),
        (
            "/(a/)(/b)",
            #"t.yaml:1:35: error: invalid pattern "/(a/)(/b)": "(/" right after "/" makes an empty segment ("//"); after "/" an optional group ends with "/": "(segment/)""#
        ),
        (
            "/(a/(/b))",
            #"t.yaml:1:34: error: invalid pattern "/(a/(/b))": "(/" right after "/" makes an empty segment ("//"); after "/" an optional group ends with "/": "(segment/)""#
        ),
        (
            "/(a/)/b",
            #"t.yaml:1:35: error: invalid pattern "/(a/)/b": "/" right after an optional group that ends with "/" makes "//" when the group is left out; remove it"#
        ),
        (
            "/a(/b/)",
            #"t.yaml:1:32: error: invalid pattern "/a(/b/)": an optional group after a segment ends with a segment: write "(/b)""#
        ),
        (
            "/x(/a/(b/))",
            #"t.yaml:1:32: error: invalid pattern "/x(/a/(b/))": an optional group after a segment ends with a segment, not "/": "(/segment)""#
        ),
        (
            "/a//b(/c)",
            #"t.yaml:1:32: error: invalid pattern "/a//b(/c)": empty segment ("//"); remove the extra "/""#
        ),
        // Text that would join a segment, groups without a segment, the wrong spelling.
        (
            "/a(/b)c",
            #"t.yaml:1:36: error: invalid pattern "/a(/b)c": "c" right after the optional group "(/b)" would join a segment; after a group comes "/", another group or the end"#
        ),
        (
            "/(a)",
            #"t.yaml:1:31: error: invalid pattern "/(a)": an optional group after "/" ends with "/": write "(a/)""#
        ),
        (
            "/a/()/b",
            #"t.yaml:1:33: error: invalid pattern "/a/()/b": empty optional group "()"; remove it, or write "(segment/)""#
        ),
        (
            "/a(/)",
            #"t.yaml:1:32: error: invalid pattern "/a(/)": empty optional group "(/)"; remove it, or write "(/segment)""#
        ),
        (
            "/a(b)",
            #"t.yaml:1:32: error: invalid pattern "/a(b)": an optional group after a segment starts with "/": "(/segment)"; one after "/" ends with it: "(segment/)""#
        ),
        (
            "myapp://(a)x",
            #"t.yaml:1:38: error: invalid pattern "myapp://(a)x": an optional group after "/" ends with "/": write "(a/)""#
        ),
        (
            "myapp://(a/)/x",
            #"t.yaml:1:42: error: invalid pattern "myapp://(a/)/x": "/" right after an optional group that ends with "/" makes "//" when the group is left out; remove it"#
        ),
        (
            "myapp://:id(/x",
            #"t.yaml:1:41: error: invalid pattern "myapp://:id(/x": optional group is not closed; add ")""#
        ),
    ])
    func refusesGroupsThatAreAmbiguousOrMakeEmptySegments(_ pattern: String, _ expected: String) {
        let error = #expect(throws: RouteTableError.self) {
            try RouteTable.load(text: "routes: [{name: a, pattern: '\(pattern)'}]", file: "t.yaml")
        }
        #expect(error?.diagnostics.map(\.description) == [expected])
    }

    /// In the host's place a group is read as path segments, which it can be only while
    /// hosts can be.
    @Test func refusesAGroupForTheHostWhenHostsAreOrigins() throws {
        let error = #expect(throws: PatternSyntaxError.self) {
            try RoutePattern("myapp://(rest/):id", hostAsPath: .never)
        }
        #expect(
            error?.message
                == "an optional group cannot stand for the host while hostAsPath is never (hosts are origins); write the host out"
        )
        #expect(error?.offset == 8)
        #expect(try RoutePattern("myapp://(rest/):id", hostAsPath: .always).expansions.count == 2)
    }

    /// Six independent groups make 64 expansions, the cap, in every spelling; a seventh is
    /// refused at its "(". `#` in `group` stands for the group's number.
    @Test(arguments: [("/a", "(/g#)"), ("/", "(g#/)"), ("/a/:p", "(/g#)"), ("myapp://:p", "(/g#)")])
    func capsTheExpansionsOfEverySpelling(_ base: String, _ group: String) throws {
        func groups(_ range: ClosedRange<Int>) -> String {
            range.map { group.split(separator: "#", omittingEmptySubsequences: false).joined(separator: String($0)) }
                .joined()
        }
        let six = base + groups(1...6)
        #expect(try RoutePattern(six, hostAsPath: .auto).expansions.count == RoutePattern.maximumExpansions)
        let error = #expect(throws: PatternSyntaxError.self) {
            try RoutePattern(six + groups(7...7), hostAsPath: .auto)
        }
        #expect(error?.message == "optional groups expand to more than 64 patterns; split the route")
        #expect(error?.offset == six.utf8.count)
    }

    /// Regression: groups nested 200,000 deep recursed once per group and overflowed the
    /// stack (a crash, from a route table). Nesting d deep means d + 1 expansions, so the
    /// cap refuses the 64th nested group before recursing into it, in either spelling.
    @Test(arguments: [
        ("/x", "(/a", ")"),
        ("/", "(a/", ")"),
    ])
    func refusesDeepNestingAtTheCapWithoutRecursingFurther(_ base: String, _ open: String, _ close: String) throws {
        let fits = base + String(repeating: open, count: 63) + String(repeating: close, count: 63)
        #expect(try RoutePattern(fits, hostAsPath: .auto).expansions.count == 64)
        let deep = base + String(repeating: open, count: 200_000) + String(repeating: close, count: 200_000)
        let error = #expect(throws: PatternSyntaxError.self) { try RoutePattern(deep, hostAsPath: .auto) }
        #expect(error?.message == "optional groups expand to more than 64 patterns; split the route")
        #expect(error?.offset == base.utf8.count + 63 * open.utf8.count)
    }
}
