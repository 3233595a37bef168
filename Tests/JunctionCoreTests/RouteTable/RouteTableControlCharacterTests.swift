import JunctionAuthoring
@testable import JunctionCore
import Testing

/// Control characters, line separators and bidi controls in names, parameter names,
/// defaults and patterns are load errors with their place, from YAML, from code and from a
/// signed `routes.json`: none reaches generated code or a message as a line of its own.
@Suite struct RouteTableControlCharacterTests {
    /// Regression (issue 27, item 3): `junction codegen` wrote a query parameter's name, a
    /// default and a pattern's regex raw into a `///` comment, so a newline in them began
    /// a line of Swift — `static let injectedByDefault = { print("owned at load") }()` was
    /// a real declaration — and `routes check` accepted all three.
    @Test(arguments: [
        (
            """
            routes:
              - name: a
                pattern: myapp://a
                params:
                  "x\\nstatic let injectedByName = { print(\\"owned at load\\") }()\\n//": string
            """,
            #"t.yaml:2:5: error: parameter "x\u{A}static let injectedByName = { print("owned at load") }()\u{A}//" holds the control character U+000A; a name is one line of visible characters"#
        ),
        (
            """
            routes:
              - name: a
                pattern: myapp://a
                params:
                  tab: { type: string, default: "posts\\nstatic let injectedByDefault = { print(\\"owned at load\\") }()\\n//" }
            """,
            #"t.yaml:2:5: error: default "posts\u{A}static let injectedByDefault = { print("owned at load") }()\u{A}//" of parameter "tab" holds the control character U+000A; write the value without it"#
        ),
        (
            """
            routes:
              - name: a
                pattern: "myapp://a/:id([0-9]+\\nstatic let injectedByRegex = 1\\n)"
            """,
            #"t.yaml:3:35: error: invalid pattern "myapp://a/:id([0-9]+\u{A}static let injectedByRegex = 1\u{A})": the control character U+000A; write it percent-encoded (%0A), or in a regex as \u{A}"#
        ),
    ])
    func refusesTheCodegenInjectionsWithFileAndLine(_ yaml: String, _ expected: String) {
        let error = #expect(throws: RouteTableError.self) { try RouteTable.load(text: yaml, file: "t.yaml") }
        #expect(error?.diagnostics.map(\.description) == [expected])
    }

    static let refused: [Unicode.Scalar] = [
        "\0", "\t", "\n", "\r", "\u{1B}", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}", "\u{2028}", "\u{2029}",
        "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}",
    ]

    /// Where each field's control character is reported, built from code.
    enum Field: CaseIterable { case name, pathParameter, queryParameter, returned, stringDefault, uuidDefault, pattern }

    static func route(_ field: Field, _ bad: String) -> Route {
        var route = Route(name: "r", pattern: "/r/:id")
        switch field {
        case .name: route.name = "r" + bad
        case .pathParameter: route.parameters = [ParameterDeclaration("id" + bad)]
        case .queryParameter: route.parameters = [ParameterDeclaration("q" + bad)]
        case .returned: route.returns = [ParameterDeclaration("done" + bad, type: .bool)]
        case .stringDefault: route.parameters = [ParameterDeclaration("q", defaultValue: .string("v" + bad))]
        case .uuidDefault: route.parameters = [ParameterDeclaration("u", type: .uuid, defaultValue: .uuid("v" + bad))]
        case .pattern: route.pattern = "/r/:id(a" + bad + ")"
        }
        return route
    }

    @Test(arguments: refused, Field.allCases)
    func refusesEachControlCharacterInEachField(_ scalar: Unicode.Scalar, _ field: Field) {
        let error = #expect(throws: RouteTableError.self) {
            try RouteTable(routes: [Self.route(field, String(scalar))])
        }
        let message = error?.diagnostics.first?.message ?? ""
        #expect(message.contains("the control character \(ControlCharacters.name(scalar))"), "\(message)")
        // The message shows the character escaped, never raw.
        #expect(!message.unicodeScalars.contains(where: ControlCharacters.contains), "\(message.debugDescription)")
    }

    @Test(arguments: Field.allCases)
    func acceptsVisibleTextInEachField(_ field: Field) throws {
        // Quotes, backslashes, comment markers and other scripts are text like any other.
        let table = try RouteTable(routes: [Self.route(field, field == .pattern ? "\u{E9}" : "\"\\*/é")])
        #expect(table.routes.count == 1)
    }

    @Test(arguments: refused)
    func findsTheFirstControlCharacterAndItsOffset(_ scalar: Unicode.Scalar) throws {
        let text = "héllo" + String(scalar) + "x\n"
        let found = try #require(ControlCharacters.first(in: text))
        #expect(found.scalar == scalar)
        #expect(found.offset == "héllo".utf8.count)
        #expect(ControlCharacters.first(in: "héllo → 用户 \u{200F}\u{2027}\u{202F}\u{A0}") == nil)
    }

    /// A device loads `routes.json`: the same refusal, with the place the table was
    /// written.
    @Test func refusesThemInASignedRoutesJSON() throws {
        let json = #"""
            {"options":{},"routes":[{"location":"routes.yaml:7:5","name":"a","params":[{"default":"posts\nstatic let injectedByDefault = 1\n//","name":"tab","type":"string"}],"pattern":"myapp://a"}]}
            """#
        let error = #expect(throws: CanonicalJSONError.self) {
            try RouteTable(canonicalJSON: Array(json.utf8), directory: "/b")
        }
        #expect(
            error?.description
                == #"routes.json: routes: /b/routes.yaml:7:5: error: default "posts\u{A}static let injectedByDefault = 1\u{A}//" of parameter "tab" holds the control character U+000A; write the value without it"#
        )
    }
}
