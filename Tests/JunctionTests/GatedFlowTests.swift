import Foundation
import Junction
import JunctionAuthoring
import Testing

/// A rule test follows a gate with `then:`: the request is decided again, as the router
/// resumes it, under the context the gate's page leaves, and gating on a gate it passed
/// is a loop. A flow that does not hold fails with what happened after which gate.
@Suite struct GatedFlowTests {
    static let routes = """
        routes:
          - { name: coupon, pattern: "myapp://coupon/:code", exported: true, groups: [login, kyc] }
          - { name: once, pattern: "myapp://once", exported: true, groups: [once] }
          - { name: login, pattern: "myapp://login", exported: true }
        """

    static let rules = """
        group("login", function(req, ctx)
          if ctx.user == nil then return gate("myapp://login", { resume = true }) end
          if ctx.banned then return gate("myapp://appeal", { resume = true }) end
        end)
        group("kyc", function(req, ctx)
          if ctx.user and not ctx.user.verified then return gate("myapp://kyc", { resume = true }) end
        end)
        group("once", function(req, ctx)
          if ctx.user == nil then return gate("myapp://login", { resume = false }) end
        end)
        """

    static func outcome(_ test: String) throws -> RuleTestOutcome {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("junction-gated-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("tests"), withIntermediateDirectories: true)
        for (path, text) in [
            "manifest.yaml": "name: gated\nversion: 1\n", "routes.yaml": routes, "rules.lua": rules,
            "tests/t.yaml": "tests:\n" + test,
        ] {
            try text.write(to: root.appendingPathComponent(path), atomically: true, encoding: .utf8)
        }
        let bundle = try RuleBundle.load(directory: root.path)
        return try Decider(bundle: bundle).run(try #require(bundle.tests.first))
    }

    static let flows: [(name: String, test: String, failures: [String])] = [
        (
            "the gate, then the coupon opens",
            """
              - name: t
                open: myapp://coupon/SPRING
                expect:
                  gate: myapp://login
                  then: { context: { user: { id: 2, verified: true } }, route: coupon, params: { code: SPRING } }
            """,
            []
        ),
        (
            "two gates, one after the other",
            """
              - name: t
                open: myapp://coupon/SPRING
                expect:
                  gate: myapp://login
                  then:
                    context: { user: { id: 2 } }
                    gate: myapp://kyc
                    then: { context: { user: { id: 2, verified: true } }, route: coupon }
            """,
            []
        ),
        (
            "null removes a key",
            """
              - name: t
                open: myapp://coupon/SPRING
                context: { user: { id: 2, verified: true }, banned: true }
                expect:
                  gate: myapp://appeal
                  then: { context: { banned: null }, route: coupon }
            """,
            []
        ),
        (
            "still a guest after the login page: a gate loop",
            """
              - name: t
                open: myapp://coupon/SPRING
                expect:
                  gate: myapp://login
                  then: { cause: gate_loop, code: 508 }
            """,
            []
        ),
        (
            "what the resumed request does is checked",
            """
              - name: t
                open: myapp://coupon/SPRING
                expect:
                  gate: myapp://login
                  then: { context: { user: { id: 2 } }, route: coupon }
            """,
            [
                #"after the gate myapp://login, with context {"user":{"id":2}}: expected route coupon, got gate myapp://kyc, then resume"#
            ]
        ),
        (
            "a gate that does not resume has no then",
            """
              - name: t
                open: myapp://once
                expect:
                  gate: myapp://login
                  then: { context: { user: { id: 2 } }, route: once }
            """,
            [
                "expected the gate myapp://login to resume the request, for then: to follow, but it does not: return "
                    + "gate(url, { resume = true })"
            ]
        ),
        (
            "no gate: the first expectation fails, and then: is not run",
            """
              - name: t
                open: myapp://coupon/SPRING
                context: { user: { id: 2, verified: true } }
                expect:
                  gate: myapp://login
                  then: { route: coupon }
            """,
            [#"expected gate myapp://login, got open coupon {"code":"SPRING"}"#]
        ),
    ]

    @Test(arguments: flows)
    func followsTheGate(name: String, test: String, failures: [String]) throws {
        let outcome = try Self.outcome(test)
        #expect(outcome.failures == failures, "\(name)")
        #expect(outcome.passed == failures.isEmpty)
    }

    @Test(arguments: [
        (
            "  - { name: t, open: \"myapp://x\", expect: { route: x, then: { route: y } } }\n",
            "t.yaml:2:55: error: then: says what the request decides after a gate, resumed; give the gate it follows too (gate: myapp://login)"
        ),
        (
            "  - { name: t, open: \"myapp://x\", expect: { gate: \"myapp://a\", then: { gate: \"myapp://b\", then: { gate: \"myapp://c\", then: { gate: \"myapp://d\", then: { route: x } } } } } }\n",
            "t.yaml:2:151: error: then: follows more than 3 gates, more than may wait behind one another"
        ),
        (
            "  - { name: t, open: \"myapp://x\", expect: { gate: \"myapp://a\", then: { context: { user: 1 }, when: y, route: x } } }\n",
            "t.yaml:2:94: error: unknown key \"when\" in then; expected one of context, route, params, redirect, reject, code, reason, cause, gate, respond, unmatched, hand_over, then, fails; did you mean \"then\"?"
        ),
    ])
    func refusesAThenThatCannotHold(_ test: String, _ expected: String) {
        #expect(throws: BundleError.self) { try RuleTestCase.load(text: "tests:\n" + test, file: "t.yaml") }
        do {
            _ = try RuleTestCase.load(text: "tests:\n" + test, file: "t.yaml")
        } catch {
            #expect(error.diagnostics.map(\.description) == [expected])
        }
    }

    @Test func aThenSurvivesTheArtifactsCanonicalJSON() throws {
        let tests = try RuleTestCase.load(
            text: """
                tests:
                  - name: t
                    open: myapp://coupon/SPRING
                    expect:
                      gate: myapp://login
                      then: { context: { user: { id: 2 }, banned: null }, gate: myapp://kyc, then: { route: coupon } }
                """, file: "b/tests/t.yaml")
        let json = try RuleTestCase.canonicalJSON(tests, relativeTo: "b")
        #expect(
            String(decoding: json, as: UTF8.self).contains(
                #""then":{"context":{"banned":null,"user":{"id":2}},"gate":"myapp://kyc","then":{"route":"coupon"}}"#))
        #expect(try RuleTestCase.decode(canonicalJSON: json, directory: "b") == tests)
    }
}
