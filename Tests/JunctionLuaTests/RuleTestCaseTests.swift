import JunctionCore
import JunctionLua
import Testing

@Suite struct RuleTestCaseTests {
    @Test func readsTestsWithTypedContextAndEveryExpectation() throws {
        let tests = try RuleTestCase.load(
            text: """
                tests:
                  - name: guests log in first
                    open: myapp://orders/7
                    source: push
                    context: { user: null, app_version: "5.2.0", age: 15, score: 2.5, minor: true, tags: [a, b] }
                    params: { coupon: SPRING }
                    expect:
                      gate: myapp://login
                  - open: myapp://old/7
                    expect: { redirect: "flutter://app/moments/7", route: moments, params: { id: "7" } }
                  - name: closed
                    open: myapp://shop
                    expect: { reject: store closed }
                  - name: anything rejected
                    open: myapp://x
                    expect: { reject: true, unmatched: true, respond: { ok: true } }
                """, file: "tests/login.yaml")
        #expect(tests.count == 4)
        let first = tests[0]
        #expect(first.name == "guests log in first" && first.source == "push" && first.open == "myapp://orders/7")
        #expect(first.context == ["app_version": "5.2.0", "age": 15, "score": 2.5, "minor": true, "tags": ["a", "b"]])
        #expect(first.params == ["coupon": "SPRING"])
        #expect(first.expectation.gate == "myapp://login")
        #expect(first.location == SourceLocation(file: "tests/login.yaml", line: 2, column: 5))
        #expect(tests[1].name == "myapp://old/7 (line 9)")
        #expect(tests[1].source == "internal")
        #expect(tests[1].expectation.redirect == "flutter://app/moments/7" && tests[1].expectation.route == "moments")
        #expect(tests[1].expectation.params == ["id": "7"])
        #expect(tests[2].expectation.reject && tests[2].expectation.rejectReason == "store closed")
        #expect(tests[3].expectation.reject && tests[3].expectation.rejectReason == nil)
        #expect(tests[3].expectation.unmatched && tests[3].expectation.respond == ["ok": true])
    }

    @Test(arguments: [
        ("tests:\n  - expect: { route: a }", "t.yaml:2:5: error: this test has no \"open:\" — the URL it opens"),
        ("tests:\n  - open: myapp://a", "t.yaml:2:5: error: this test has no \"expect:\" — what the decision must be"),
        (
            "tests:\n  - open: myapp://a\n    expect: {}",
            "t.yaml:3:13: error: expect: says nothing to check; give route, params, redirect, reject, gate, respond, unmatched or hand_over"
        ),
        (
            "tests:\n  - open: myapp://a\n    expect: { rout: a }",
            "t.yaml:3:15: error: unknown key \"rout\" in expect; expected one of route, params, redirect, reject, gate, respond, unmatched, hand_over"
        ),
        (
            "tests:\n  - open: myapp://a\n    context: [1]\n    expect: { route: a }",
            "t.yaml:3:14: error: context must be a mapping of names to values"
        ),
        (
            "tests:\n  - { name: x, open: a, expect: { route: a } }\n  - { name: x, open: b, expect: { route: b } }",
            "t.yaml:3:5: error: a test named \"x\" is already at line 2; give each test its own name"
        ),
        ("cases: []", "t.yaml:1:1: error: unknown key \"cases\" in a rule-test file; expected one of tests"),
    ])
    func explainsMistakesWhereTheyAre(_ text: String, _ expected: String) {
        let error = #expect(throws: BundleError.self) { try RuleTestCase.load(text: text, file: "t.yaml") }
        #expect(error?.diagnostics.first?.description == expected)
    }

    static let manifest: BundleManifest = {
        var manifest = BundleManifest(name: "shop", version: .integer(1))
        manifest.sources = ["mini_program"]
        manifest.context = ["app_version": .version, "hour": .int, "user": .table(["id": .int])]
        return manifest
    }()

    @Test func typesTheContextByTheManifestsSchemaAndKnowsItsSources() throws {
        let tests = try RuleTestCase.load(
            text: """
                tests:
                  - open: myapp://a
                    source: mini_program
                    context: { app_version: 6.0, hour: 22, user: { id: 7 } }
                    expect: { route: a }
                """, file: "t.yaml", manifest: Self.manifest)
        #expect(tests.first?.context == ["app_version": "6.0", "hour": 22, "user": ["id": 7]])
        #expect(tests.first?.source == "mini_program")
    }

    @Test(arguments: [
        (
            "    source: mini_progam",
            "t.yaml:3:13: error: source \"mini_progam\" is neither standard nor declared in the manifest's sources: (internal, push, universal_link, h5, external, mini_program); did you mean \"mini_program\"?"
        ),
        (
            "    source: car_play",
            "t.yaml:3:13: error: source \"car_play\" is neither standard nor declared in the manifest's sources: (internal, push, universal_link, h5, external, mini_program); declare it there if the app uses it"
        ),
        (
            "    context: { user_id: 7 }",
            "t.yaml:3:16: error: context key \"user_id\" is not declared in the manifest's context:; did you mean \"user.id\"?"
        ),
        (
            "    context: { hour: \"22\" }",
            "t.yaml:3:22: error: context hour is declared int, not the text \"22\"; write 22 without quotes"
        ),
    ])
    func checksSourceAndContextAgainstTheManifest(_ line: String, _ expected: String) {
        let text = "tests:\n  - open: myapp://a\n\(line)\n    expect: { route: a }"
        let error = #expect(throws: BundleError.self) {
            try RuleTestCase.load(text: text, file: "t.yaml", manifest: Self.manifest)
        }
        #expect(error?.diagnostics.map(\.description) == [expected])
        // Without the manifest (it did not load), nothing is checked against it.
        #expect(throws: Never.self) { try RuleTestCase.load(text: text, file: "t.yaml") }
    }
}
