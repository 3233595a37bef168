import JunctionAuthoring
import JunctionCore
import Testing

/// A rule test's `context:` typed by the manifest's schema (the CLI's `--context` goes
/// through the same reading; its own tests are in JunctionCLITests).
@Suite struct ContextValueTests {
    static let schema: ContextSchema = [
        "app_version": .version, "hour": .int, "score": .number, "device_id": .string,
        "user": .table(["id": .int, "age": .int]), "flags": .table(["native_live": .bool]), "roles": .list(.string),
        "extra": .any,
    ]

    /// The context as read, and the diagnostics.
    static func read(_ text: String, schema: ContextSchema? = schema) -> (RuleValue, [String]) {
        var yaml = YAMLReader(file: "t.yaml", document: "a rule-test file")
        guard let node = yaml.compose(text) else { return (.nil, yaml.diagnostics.map(\.description)) }
        let value = yaml.contextValue(node, schema: schema)
        return (value, yaml.diagnostics.map(\.description))
    }

    @Test(
        arguments: [
            ("{ app_version: 6.0 }", ["app_version": "6.0"]),
            ("{ app_version: 6 }", ["app_version": "6"]),
            ("{ app_version: \"6.0.0-beta.1\" }", ["app_version": "6.0.0-beta.1"]),
            ("{ app_version: !!str 6.0 }", ["app_version": "6.0"]),
            ("{ hour: 22 }", ["hour": 22]),
            ("{ hour: 0x10 }", ["hour": 16]),
            ("{ hour: !!int \"7\" }", ["hour": 7]),
            ("{ score: 5 }", ["score": 5]),
            ("{ score: 2.5 }", ["score": 2.5]),
            ("{ device_id: 123 }", ["device_id": "123"]),
            ("{ device_id: true }", ["device_id": "true"]),
            ("{ user: { id: 1, age: 15 } }", ["user": ["id": 1, "age": 15]]),
            ("{ user: null, hour: ~, device_id: }", [:]),
            ("{ user: { id: 1, age: null } }", ["user": ["id": 1]]),
            ("{ flags: { native_live: false } }", ["flags": ["native_live": false]]),
            ("{ roles: [admin, 5] }", ["roles": ["admin", "5"]]),
            ("{ roles: [] }", ["roles": .array([])]),
            ("{ extra: { anything: [1, x], at: 2.5 } }", ["extra": ["anything": [1, "x"], "at": 2.5]]),
        ] as [(String, RuleValue)])
    func typesEachValueByItsDeclaredType(_ text: String, _ expected: RuleValue) {
        let (value, diagnostics) = Self.read(text)
        #expect(diagnostics == [])
        #expect(value == expected)
    }

    @Test func withoutASchemaYAMLTypesTheValues() {
        let (value, diagnostics) = Self.read("{ app_version: 6.0, anything: [1, x] }", schema: nil)
        #expect(diagnostics == [])
        #expect(value == ["app_version": 6.0, "anything": [1, "x"]])
    }

    @Test(arguments: [
        (
            "{ hour: \"22\" }",
            "t.yaml:1:9: error: context hour is declared int, not the text \"22\"; write 22 without quotes"
        ),
        ("{ hour: 22.5 }", "t.yaml:1:9: error: context hour is declared int, not 22.5"),
        ("{ score: high }", "t.yaml:1:10: error: context score is declared number, not high"),
        (
            "{ user_id: 1 }",
            "t.yaml:1:3: error: context key \"user_id\" is not declared in the manifest's context:; did you mean \"user.id\"?"
        ),
        (
            "{ user: { idd: 1 } }",
            "t.yaml:1:11: error: context key \"user.idd\" is not declared in the manifest's context:; did you mean \"user.id\"?"
        ),
        (
            "{ hours: 3 }",
            "t.yaml:1:3: error: context key \"hours\" is not declared in the manifest's context:; did you mean \"hour\"?"
        ),
        (
            "{ colour: red }",
            "t.yaml:1:3: error: context key \"colour\" is not declared in the manifest's context:; declare it there, or leave it out"
        ),
        (
            "{ app_version: five }",
            "t.yaml:1:16: error: context app_version is declared version, not five; a version reads like 5.2.0"
        ),
        (
            "{ app_version: \"\" }",
            "t.yaml:1:16: error: context app_version is declared version, not the text \"\"; a version reads like 5.2.0"
        ),
        (
            "{ app_version: !!float 6.0 }",
            "t.yaml:1:16: error: context app_version is declared version, not !!float 6.0"
        ),
        (
            "{ hour: !!int 7.5 }",
            "t.yaml:1:9: error: context.hour: \"7.5\" is tagged !!int but is not an integer"
        ),
        (
            "{ flags: { native_live: yes } }",
            "t.yaml:1:25: error: context flags.native_live is declared bool, not yes; write true or false"
        ),
        (
            "{ flags: { native_live: \"true\" } }",
            "t.yaml:1:25: error: context flags.native_live is declared bool, not the text \"true\"; write true without quotes"
        ),
        ("{ roles: admin }", "t.yaml:1:10: error: context roles is declared [string], not admin; write [admin]"),
        ("{ roles: [admin, [x]] }", "t.yaml:1:18: error: context roles[2] is declared string, not a list"),
        ("{ user: 5 }", "t.yaml:1:9: error: context user is declared a table (keys id, age), not 5"),
        ("{ user: [1] }", "t.yaml:1:9: error: context user is declared a table (keys id, age), not a list"),
        ("{ hour: { at: 1 } }", "t.yaml:1:9: error: context hour is declared int, not a table"),
        ("[1]", "t.yaml:1:1: error: context must be a mapping of names to values"),
        (
            "{ " + String(repeating: "x", count: 200) + ": 1 }",
            "t.yaml:1:3: error: context key \"" + String(repeating: "x", count: 63)
                + "…\" is not declared in the manifest's context:; declare it there, or leave it out"
        ),
    ])
    func explainsEachValueThatDoesNotFitWhereItIs(_ text: String, _ expected: String) {
        #expect(Self.read(text).1 == [expected])
    }

    @Test func reportsEveryMistakeAndKeepsTheRest() {
        let (value, diagnostics) = Self.read("{ hour: \"1\", user_id: 2, device_id: d1, roles: [a, [b], c] }")
        #expect(
            diagnostics == [
                "t.yaml:1:9: error: context hour is declared int, not the text \"1\"; write 1 without quotes",
                "t.yaml:1:14: error: context key \"user_id\" is not declared in the manifest's context:; did you mean \"user.id\"?",
                "t.yaml:1:52: error: context roles[2] is declared string, not a list",
            ])
        #expect(value == ["device_id": "d1", "roles": ["a", "c"]])
    }

    /// Suggestions in one file stop after 1,000 comparisons with declared keys, as for snapshots.
    @Test func spendsABoundedEffortOnSuggestionsPerFile() {
        let large = ContextSchema((0..<1_000).map { ContextSchema.Field("key\($0)", .int) })
        let text = "{ " + (0..<50).map { "kye\($0): 1" }.joined(separator: ", ") + " }"
        let diagnostics = Self.read(text, schema: large).1
        #expect(diagnostics.count == 50)
        #expect(
            diagnostics.filter { $0.contains("did you mean") } == [
                "t.yaml:1:3: error: context key \"kye0\" is not declared in the manifest's context:; did you mean \"key0\"?"
            ])
    }
}
