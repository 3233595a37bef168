import JunctionAuthoring
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
                  - name: refused with a code
                    open: myapp://x
                    expect: { reject: true, code: 451, redirect: none }
                  - name: a loop
                    open: myapp://a
                    expect: { cause: redirect_loop, code: 508, reason: "redirect loop: myapp://a → myapp://b → myapp://a" }
                  - name: the audit fails and the page opens
                    open: myapp://home
                    expect: { route: home, fails: push-audit }
                  - name: any failure, quoted texts
                    open: myapp://home
                    expect: { fails: true, reject: "true", code: !!int "500" }
                """, file: "tests/login.yaml")
        #expect(tests.count == 7)
        let first = tests[0]
        #expect(first.name == "guests log in first" && first.source == "push" && first.open == "myapp://orders/7")
        #expect(first.context == ["app_version": "5.2.0", "age": 15, "score": 2.5, "minor": true, "tags": ["a", "b"]])
        #expect(first.params == ["coupon": "SPRING"])
        #expect(first.expectation.gate == "myapp://login")
        #expect(first.expectation.failures == .never && !first.expectation.expectsRejection)
        #expect(first.location == SourceLocation(file: "tests/login.yaml", line: 2, column: 5))
        #expect(tests[1].name == "myapp://old/7 (line 9)")
        #expect(tests[1].source == "internal")
        #expect(tests[1].expectation.redirect == "flutter://app/moments/7" && tests[1].expectation.route == "moments")
        #expect(tests[1].expectation.params == ["id": "7"] && !tests[1].expectation.noRedirect)
        #expect(tests[2].expectation.reject && tests[2].expectation.reason == "store closed")
        let coded = tests[3].expectation
        #expect(coded.reject && coded.reason == nil && coded.code == 451 && coded.noRedirect && coded.redirect == nil)
        let loop = tests[4].expectation
        #expect(!loop.reject && loop.expectsRejection && loop.cause == .redirectLoop && loop.code == 508)
        #expect(loop.reason == "redirect loop: myapp://a → myapp://b → myapp://a")
        #expect(tests[5].expectation.route == "home" && tests[5].expectation.failures == .matching(["push-audit"]))
        let quoted = tests[6].expectation
        #expect(quoted.failures == .any && quoted.reject && quoted.reason == "true" && quoted.code == 500)
    }

    @Test func failsTakesAListOfRules() throws {
        let tests = try RuleTestCase.load(
            text: """
                tests:
                  - open: myapp://home
                    expect:
                      fails: [push-audit, "policies.lua:4", attempt to index]
                """, file: "t.yaml")
        #expect(tests.first?.expectation.failures == .matching(["push-audit", "policies.lua:4", "attempt to index"]))
    }

    @Test(arguments: [
        ("tests:\n  - expect: { route: a }", "t.yaml:2:5: error: this test has no \"open:\" — the URL it opens"),
        ("tests:\n  - open: myapp://a", "t.yaml:2:5: error: this test has no \"expect:\" — what the decision must be"),
        (
            "tests:\n  - open: myapp://a\n    expect: {}",
            "t.yaml:3:13: error: expect: says nothing to check; give route, params, redirect, reject, code, reason, "
                + "cause, gate, respond, unmatched, hand_over, then or fails"
        ),
        (
            "tests:\n  - open: myapp://a\n    expect: { rout: a }",
            "t.yaml:3:15: error: unknown key \"rout\" in expect; expected one of route, params, redirect, reject, "
                + "code, reason, cause, gate, respond, unmatched, hand_over, then, fails; did you mean \"route\"?"
        ),
        (
            "tests:\n  - open: myapp://a\n    expect: { failed: true }",
            "t.yaml:3:15: error: unknown key \"failed\" in expect; expected one of route, params, redirect, reject, "
                + "code, reason, cause, gate, respond, unmatched, hand_over, then, fails; did you mean \"fails\"?"
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

extension RuleTestCaseTests {
    /// Each `expect:` that cannot mean what it says, or can never hold, and the one error
    /// it gets.
    @Test(arguments: [
        (
            "{ redirect: false }",
            "3:25: error: redirect: false is not a URL; to expect that the request is not redirected, write "
                + "redirect: none"
        ),
        (
            "{ redirect: ~ }",
            "3:25: error: redirect: ~ is not a URL; to expect that the request is not redirected, write redirect: none"
        ),
        (
            "{ redirect: true }",
            "3:25: error: redirect: true is not a URL; give the URL the redirects end at "
                + "(redirect: https://m.example.com/x)"
        ),
        (
            "{ redirect: \"my app://x\" }",
            "3:25: error: redirect: \"my app://x\" is not a URL (invalid scheme \"my app\" (a scheme is a letter "
                + "followed by letters, digits, \"+\", \"-\" or \".\") at offset 2 in \"my app://x\"); give the URL the redirects end at, or none for "
                + "a request that is not redirected"
        ),
        ("{ redirect: [a] }", "3:25: error: redirect: must be a URL or none, not a list or a mapping"),
        (
            "{ reject: false }",
            "3:23: error: reject: false says only what does not happen; expect what does: route:, gate:, respond:, "
                + "unmatched: true or hand_over:"
        ),
        (
            "{ reject: null }",
            "3:23: error: reject: needs true, or the reason the request is refused with (reject: store closed)"
        ),
        (
            "{ reject: 403 }",
            "3:23: error: reject: 403 is a number, not a reason; for a request refused with that code, write code: 403"
        ),
        (
            "{ unmatched: false }",
            "3:26: error: unmatched: false says only what does not happen; expect what does: route:, reject:, gate:, "
                + "respond: or hand_over:"
        ),
        ("{ unmatched: yes }", "3:26: error: unmatched: must be true"),
        (
            "{ code: \"abc\" }",
            "3:21: error: code: \"abc\" is text; a rejection's code is a whole number from 100 to 999, such as 403"
        ),
        (
            "{ code: \"451\" }",
            "3:21: error: code: \"451\" is text; write the number unquoted, code: 451; a rejection's code is a whole "
                + "number from 100 to 999, such as 403"
        ),
        (
            "{ code: 42 }",
            "3:21: error: code: 42 is outside 100–999; a rejection's code is a whole number from 100 to 999, such as 403"
        ),
        (
            "{ code: 1000 }",
            "3:21: error: code: 1000 is outside 100–999; a rejection's code is a whole number from 100 to 999, such "
                + "as 403"
        ),
        (
            "{ code: 4.5e2 }",
            "3:21: error: code: 4.5e2 is not a whole number; a rejection's code is a whole number from 100 to 999, "
                + "such as 403"
        ),
        ("{ code: !!int abc }", "3:21: error: code: \"abc\" is tagged !!int but is not an integer"),
        ("{ code: [403] }", "3:21: error: code: must be a whole number from 100 to 999, not a list or a mapping"),
        (
            "{ cause: redirect-loop }",
            "3:22: error: cause: \"redirect-loop\" is not one of rule, not_exported, rule_failed, decision_budget, "
                + "invalid_url, redirect_loop, too_many_redirects, gate_loop, invalid_redirect, undeclared_parameters; did you mean "
                + "\"redirect_loop\"?"
        ),
        (
            "{ route: false }",
            "3:22: error: route: false is not a route name; route: takes the name of the route the request opens"
        ),
        ("{ route: { a: 1 } }", "3:22: error: route: must be text, not a list or a mapping"),
        ("{ gate: true }", "3:21: error: gate: true is not a URL; gate: takes the URL the gate opens first"),
        (
            "{ hand_over: null }",
            "3:26: error: hand_over: null is not a scheme; hand_over: takes the scheme whose dispatcher gets the URL"
        ),
        (
            "{ reason: true }",
            "3:23: error: reason: true is not a reason; reason: takes the text the request is refused with (for any "
                + "reason, leave it out)"
        ),
        (
            "{ fails: false }",
            "3:22: error: fails: false is what every test expects already (no rule may fail); leave it out"
        ),
        (
            "{ fails: [] }",
            "3:22: error: fails: [] lists no rule; give the rule that fails: its name, its file:line or part of its "
                + "error (fails: login), or true for any"
        ),
        (
            "{ fails: \"\" }",
            "3:22: error: fails: \"\" designates no rule; give the rule that fails: its name, its file:line or part "
                + "of its error (fails: login)"
        ),
        (
            "{ fails: [login, null] }",
            "3:30: error: fails: null is not a rule; fails: takes the rule that fails: its name, its file:line or "
                + "part of its error (fails: login)"
        ),
        (
            "{ fails: { rule: login } }",
            "3:22: error: fails: must be true, the rule that fails: its name, its file:line or part of its error "
                + "(fails: login), or a list of them"
        ),
        // Outcomes that can never hold together: the error is at the second.
        (
            "{ route: home, reject: true }",
            "3:28: error: route: and reject: cannot both hold: route: means it opens a route, reject: that a rule or "
                + "the access check refuses it; keep the one this test means"
        ),
        (
            "{ gate: \"myapp://login\", code: 403 }",
            "3:38: error: gate: and code: cannot both hold: gate: means a gate opens first, code: that it is refused "
                + "with that code; keep the one this test means"
        ),
        (
            "{ unmatched: true, hand_over: https }",
            "3:32: error: unmatched: and hand_over: cannot both hold: unmatched: means nothing takes it, hand_over: "
                + "that a dispatcher takes it; keep the one this test means"
        ),
        (
            "{ respond: 1, cause: rule }",
            "3:27: error: respond: and cause: cannot both hold: respond: means a rule answers it, cause: that it is "
                + "refused for that cause; keep the one this test means"
        ),
        (
            "{ reason: x, route: home }",
            "3:26: error: reason: and route: cannot both hold: reason: means it is refused with that reason, route: "
                + "that it opens a route; keep the one this test means"
        ),
        // The rejection's fields against one another.
        (
            "{ reject: closed, reason: closed }",
            "3:39: error: the reason is given twice, by reject: and reason:; write reject: true with reason:, or the "
                + "reason in reject: alone"
        ),
        (
            "{ reason: closed, reject: open }",
            "3:39: error: the reason is given twice, by reject: and reason:; write reject: true with reason:, or the "
                + "reason in reject: alone"
        ),
        (
            "{ reject: true, cause: redirect_loop }",
            "3:29: error: cause: redirect_loop cannot hold with reject:, which means a rule or the access check "
                + "refused (cause rule or not_exported); leave reject: out"
        ),
        (
            "{ cause: rule_failed }",
            "3:15: error: cause: rule_failed means a rule failed, and a test fails on every rule failure it does not "
                + "expect; add fails: with the rule (its name, its file:line or part of its error)"
        ),
        (
            "{ cause: not_exported, code: 404 }",
            "3:36: error: code: 404 cannot hold with cause: not_exported, which is always refused with 403"
        ),
    ])
    func refusesExpectationsThatCannotMeanWhatTheySay(_ expect: String, _ expected: String) {
        let text = "tests:\n  - open: myapp://a\n    expect: \(expect)\n"
        let error = #expect(throws: BundleError.self) { try RuleTestCase.load(text: text, file: "t.yaml") }
        #expect(error?.diagnostics.map(\.description) == ["t.yaml:" + expected])
    }

    @Test func failsListsAtMostItsBoundOfRules() throws {
        let bound = RuleTestCase.maximumFailingRules
        let list = (0...bound).map { "r\($0)" }.joined(separator: ", ")
        let text = "tests:\n  - open: myapp://a\n    expect: { fails: [\(list)] }\n"
        let error = #expect(throws: BundleError.self) { try RuleTestCase.load(text: text, file: "t.yaml") }
        #expect(
            error?.diagnostics.map(\.description) == [
                "t.yaml:3:22: error: fails: lists 101 rules, more than the 100 a test may; a test that expects that "
                    + "many failures should say fails: true"
            ])
        let within = (1...bound).map { "r\($0)" }.joined(separator: ", ")
        let tests = try RuleTestCase.load(
            text: "tests:\n  - open: myapp://a\n    expect: { fails: [\(within)] }\n", file: "t.yaml")
        #expect(tests.first?.expectation.failures == .matching((1...bound).map { "r\($0)" }))
    }

    @Test(arguments: [
        "{ cause: decision_budget, fails: true, code: 500 }",
        "{ reject: true, cause: not_exported, code: 403, redirect: none }",
        "{ fails: push-audit, reject: no, code: 418 }",
        "{ gate: \"myapp://login\", redirect: none, params: { id: 1 } }",
        "{ redirect: \"https://m.example.com/x\", hand_over: https }",
        "{ redirect: none, unmatched: true, fails: [a, b] }",
        "{ reason: !!str null, fails: \"fallback.lua:3\" }",
    ])
    func acceptsExpectationsThatCanHoldTogether(_ expect: String) throws {
        let tests = try RuleTestCase.load(text: "tests:\n  - open: myapp://a\n    expect: \(expect)\n", file: "t.yaml")
        #expect(tests.count == 1)
    }
}
