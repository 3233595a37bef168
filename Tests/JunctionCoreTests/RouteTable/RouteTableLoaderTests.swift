import Foundation
@testable import JunctionAuthoring
@testable import JunctionCore
import Testing

@Suite struct RouteTableLoaderTests {
    static func fixture(_ name: String) throws -> String {
        try #require(Bundle.module.path(forResource: name, ofType: nil, inDirectory: "Fixtures"))
    }

    @Test func loadsEveryFieldOfAYAMLTable() throws {
        let table = try RouteTable.load(contentsOf: Self.fixture("valid.yaml"))
        #expect(table.options == RouteTableOptions(hostAsPath: .auto, plusAsSpace: false, caseSensitive: false))
        let route = try #require(table.route(named: "user.profile"))
        #expect(route.pattern == "myapp://user/:id")
        #expect(route.target == "ProfilePage")
        #expect(route.priority == 2)
        #expect(route.groups == ["social", "login"])
        #expect(route.isExported)
        #expect(route.description == "A profile.")
        #expect(
            route.parameters == [
                ParameterDeclaration("id", type: .int, isRequired: true, description: "The id."),
                ParameterDeclaration("tab", type: .string, defaultValue: .string("posts")),
                ParameterDeclaration("compact", type: .bool),
            ])
        #expect(
            route.returns == [ParameterDeclaration("followed", type: .bool, description: "Whether the user followed.")])
        #expect(route.location?.line == 6)
        #expect(route.patternLocation == SourceLocation(file: try Self.fixture("valid.yaml"), line: 7, column: 14))
        let home = try #require(table.route(named: "home"))
        #expect(home.target == "home")  // defaults to the name
        #expect(home.groups == ["solo"])
        #expect(!home.isExported)
        #expect(home.patternLocation?.column == 15)  // inside the quotes
        #expect(try table.match("myapp://USER/7")?.route.name == "user.profile")
    }

    @Test func loadsJSON() throws {
        let table = try RouteTable.load(contentsOf: Self.fixture("valid.json"))
        #expect(table.options.hostAsPath == .never)
        #expect(table.routes.map(\.name) == ["user", "web"])
        #expect(try table.match("myapp://user/3")?.parameters["id"] == "3")
    }

    @Test func reportsEveryProblemWithFileLineAndColumn() throws {
        let path = try Self.fixture("invalid.yaml")
        let error = try #require(throws: RouteTableError.self) { try RouteTable.load(contentsOf: path) }
        let expected = [
            "2:15: error: hostAsPath must be one of auto, always, never (got \"sometimes\")",
            "3:3: error: unknown key \"colour\" in options; expected one of hostAsPath, plusAsSpace, caseSensitive, dispatchedSchemes",
            "7:5: error: duplicate route name \"a\" (first declared at \(path):5:5); rename one",
            "10:14: error: pattern \"/a/:other\" is the same as route \"a\"'s \"/a/:id\" at \(path):6:14; only one of them could ever match — remove one or make them differ",
            "12:20: error: invalid pattern \"/d/:x/:x\": parameter \"x\" appears twice; give each parameter its own name",
            #"14:20: error: invalid pattern "/e/:n([0-9)": regex "[0-9)" of parameter "n": missing "]" for the class opened at offset 0; close it, or write "\[" for the character"#,
            "16:17: error: invalid pattern \"/f/**/g\": \"**\" must be the last segment; use \"*\" for one segment in the middle",
            "19:5: error: unknown key \"colour\" in a route; expected one of name, pattern, target, priority, groups, exported, description, params, returns, meta, launch, params_strict",
            "21:18: error: unknown parameter type \"integer\"; use one of string, int, double, bool, uuid",
            "22:32: error: default \"abc\" of \"m\" is not int",
            "23:48: error: parameter \"k\" is required and has a default; a default makes it optional — drop one",
            "26:15: error: priority must be an integer",
            "27:15: error: exported must be true or false",
        ].map { "\(path):\($0)" }
        #expect(error.diagnostics.map(\.description) == expected)
    }

    @Test(arguments: [
        (
            "routes: [ {name: a, pattern: /a}",
            "t.yaml:2:1: error: not valid YAML or JSON: did not find expected ',' or ']' while parsing a flow sequence"
        ),
        ("", "t.yaml:1:1: error: the file is empty; a route table has \"routes:\""),
        ("options: {}", "t.yaml:1:1: error: missing \"routes:\" — the list of routes"),
        ("routes: {a: 1}", "t.yaml:1:9: error: routes must be a list (\"- …\" items)"),
        ("routes:\n  - pattern: /a", "t.yaml:2:5: error: this route has no \"name:\"; every route needs a unique name"),
        ("routes:\n  - name: a", "t.yaml:2:5: error: route \"a\" has no \"pattern:\""),
        (
            "routes:\n  - name: a\n    name: b\n    pattern: /a",
            "t.yaml:2:5: error: duplicate key \"name\" in this mapping; keep one"
        ),
        (
            "routes:\n  - name: a\n    pattern: a/b",
            "t.yaml:3:14: error: invalid pattern \"a/b\": a pattern starts with \"/\" (any scheme) or \"scheme://\""
        ),
        (
            "routes:\n  - name: a\n    pattern: /a//b",
            "t.yaml:3:16: error: invalid pattern \"/a//b\": empty segment (\"//\"); remove the extra \"/\""
        ),
        (
            "routes:\n  - name: a\n    pattern: /a/b*",
            "t.yaml:3:18: error: invalid pattern \"/a/b*\": \"*\" inside a segment; \"*\" and \"**\" stand alone, \"(…)\" follows \":name\" or is an optional group: \"(/…)\" after a segment, \"(…/)\" after \"/\""
        ),
        (
            "routes:\n  - name: a\n    pattern: /a/%zz",
            "t.yaml:3:17: error: invalid pattern \"/a/%zz\": invalid percent-escape in \"%zz\""
        ),
        (
            "routes:\n  - name: a\n    pattern: /a(/:x)(/:y)",
            "t.yaml:3:14: error: the optional groups of \"/a(/:x)(/:y)\" expand to the same pattern twice; make the groups distinct"
        ),
        (
            "routes:\n  - name: a\n    pattern: /a(b)",
            "t.yaml:3:16: error: invalid pattern \"/a(b)\": an optional group after a segment starts with \"/\": \"(/segment)\"; one after \"/\" ends with it: \"(segment/)\""
        ),
        (
            "routes:\n  - name: a\n    pattern: /a(/b",
            "t.yaml:3:16: error: invalid pattern \"/a(/b\": optional group is not closed; add \")\""
        ),
        (
            "routes:\n  - name: a\n    pattern: /a/b)",
            "t.yaml:3:18: error: invalid pattern \"/a/b)\": unbalanced \")\"; an optional group is written \"(/segment)\" after a segment, \"(segment/)\" after \"/\""
        ),
        (
            "routes:\n  - name: a\n    pattern: myapp://u@h/x",
            "t.yaml:3:23: error: invalid pattern \"myapp://u@h/x\": a pattern names a scheme, a host and a path; remove the userinfo, port, query or fragment"
        ),
        (
            "routes:\n  - name: a b\n    pattern: /a",
            "t.yaml:2:5: error: route name \"a b\" must be non-empty and without spaces"
        ),
        (
            "routes:\n  - name: a\n    pattern: /a\n    groups: [x, {y: z}]",
            "t.yaml:4:17: error: each of groups must be text"
        ),
    ])
    func explainsEachKindOfMistake(_ text: String, _ expected: String) {
        let error = #expect(throws: RouteTableError.self) { try RouteTable.load(text: text, file: "t.yaml") }
        #expect(error?.diagnostics.first?.description == expected)
    }

    /// Regression: Yams hashed mapping keys recursively, so nested aliases used as a key
    /// ("billion laughs") kept the loader busy for 70 s at 10⁸ nodes, forever at 10⁹.
    /// The composer refuses the first alias the parser meets.
    @Test func refusesYAMLAliasesAtTheFirstOne() {
        var yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            yaml +=
                "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
                + "]\n"
        }
        yaml += "routes:\n  ? *a9\n  : 1\n"
        let error = #expect(throws: RouteTableError.self) { try RouteTable.load(text: yaml, file: "bomb.yaml") }
        #expect(
            error?.description
                == #"bomb.yaml:2:10: error: YAML aliases ("*name") are not allowed in a route table; write the value out (and quote text that starts with "*")"#
        )
    }

    @Test(arguments: [
        ("a: *x", true), ("- *x", true), ("[*x]", true), ("{a: *x}", true), ("? *x\n: 1", true), ("a: [1, *x]", true),
        ("pattern: /b/*/c", false), ("pattern: /b/**", false), ("a: '*x'", false), ("a: \"*x\"", false),
        ("a: x # *x", false), ("a: |\n  *x\n  *y\nb: 1", false), ("a: >-\n  *x\n", false), ("a: 'it''s *x'", false),
        ("description: rate *high*", false), ("a: \"q\\\" *x\"", false), ("a: b*c", false),
        // Regression: an apostrophe inside text opened the old scanner's quote and hid the alias.
        ("a: it's\nb: *x", true),
    ])
    func tellsAliasesFromStarsInText(_ text: String, _ isAlias: Bool) {
        var yaml = YAMLReader(file: "t.yaml", document: "a route table")
        _ = yaml.compose(text)
        #expect(yaml.diagnostics.contains { $0.message.hasPrefix("YAML aliases") } == isAlias, "\(text)")
        #expect(yaml.diagnostics.count == (isAlias ? 1 : 0), "\(text)")
    }

    @Test func namesAMissingFile() {
        let error = #expect(throws: RouteTableError.self) {
            try RouteTable.load(contentsOf: "/nonexistent/routes.yaml")
        }
        #expect(error?.description.hasPrefix("route table: error: cannot read /nonexistent/routes.yaml") == true)
    }

    @Test func reportsRegexesThatDoNotCompileAtTheRegex() {
        let error = #expect(throws: RouteTableError.self) {
            try RouteTable.load(text: "routes:\n  - name: a\n    pattern: /a/:n(a{2,1})", file: "t.yaml")
        }
        #expect(
            error?.diagnostics.map(\.description) == [
                #"t.yaml:3:21: error: invalid pattern "/a/:n(a{2,1})": regex "a{2,1}" of parameter "n": repetition "{2,1}" at offset 1 has its minimum above its maximum; write "{1,2}""#
            ])
    }

    /// Patterns that differ only where the table's comparison of shapes could blur them:
    /// `*` `*` is not `**`, a regex is part of the shape, constants are compared as bytes
    /// (precomposed "é" and "e" + U+0301 are different segments).
    @Test(arguments: [
        ["/a/*/*", "/a/**"], ["/a/:x", "/a/:y([0-9]+)"], ["/a/:x([0-9]+)", "/a/:y([0-9]*)"], ["/a/:x", "/a/x"],
        ["/caf%C3%A9", "/cafe%CC%81"], ["myapp://a/b", "/a/b"], ["https://x.com/a", "https://y.com/a"],
        ["/a/b c", "/a/b/c"],
    ])
    func acceptsPatternsOfDifferentShapes(_ patterns: [String]) throws {
        let table = try RouteTable(routes: patterns.enumerated().map { Route(name: "r\($0)", pattern: $1) })
        #expect(table.routes.count == patterns.count)
    }

    @Test(arguments: [
        ["/a/:x", "/a/:y"], ["/a/*/**", "/a/*/**/"], ["myapp://a/b", "MYAPP://a/b"], ["/a/:x(\\d+)", "/a/:y(\\d+)"],
    ])
    func refusesPatternsOfOneShape(_ patterns: [String]) {
        let error = #expect(throws: RouteTableError.self) {
            try RouteTable(routes: patterns.enumerated().map { Route(name: "r\($0)", pattern: $1) })
        }
        #expect(error?.diagnostics.count == 1)
        #expect(error?.diagnostics.first?.message.contains("is the same as route \"r0\"") == true)
    }

    /// Names are checked byte by byte when ASCII and by Unicode's White_Space otherwise;
    /// control characters, visible or not, are refused (``RouteTableControlCharacterTests``).
    @Test(arguments: [
        ("a b", false), ("a\tb", false), ("a\nb", false), ("a\u{0B}b", false), ("a\u{0C}b", false), ("a\rb", false),
        ("a\u{A0}b", false), ("a\u{2003}b", false), ("a\u{3000}b", false), ("", false), ("a\u{1F}b", false),
        ("a.b", true), ("用户.主页", true), ("café", true),
    ])
    func refusesRouteNamesWithWhiteSpace(_ name: String, _ isValid: Bool) {
        let result = Result { () throws(RouteTableError) in try RouteTable(routes: [Route(name: name, pattern: "/a")]) }
        if isValid {
            #expect((try? result.get())?.route(named: name) != nil, "\(name.debugDescription)")
        } else {
            #expect(throws: RouteTableError.self, "\(name.debugDescription)") { try result.get() }
        }
    }

    @Test func buildsFromCodeWithRouteNamesInErrors() {
        let error = #expect(throws: RouteTableError.self) {
            try RouteTable(routes: [
                Route(name: "x", pattern: "/x", parameters: [ParameterDeclaration("p"), ParameterDeclaration("p")]),
                Route(
                    name: "y", pattern: "/y",
                    parameters: [ParameterDeclaration("q", type: .int, defaultValue: .string("1"))]),
            ])
        }
        #expect(
            error?.description == """
                route "x": error: parameter "p" is declared twice; keep one declaration
                route "y": error: default 1 of parameter "q" is not int
                """)
    }
}
