import Foundation
import Junction
import JunctionAuthoring
import Testing

/// Rule tests judged against decisions: a rule that fails — an error, its budget, a value
/// that is not a verdict, the decision's budget, on_error = continue or not — passes no
/// test that does not say it expects that failure.
@Suite struct RuleTestOutcomeTests {
    static let routes = """
        routes:
          - { name: error, pattern: "myapp://error", exported: true }
          - { name: budget, pattern: "myapp://budget", exported: true }
          - { name: verdict, pattern: "myapp://verdict", exported: true }
          - { name: spent, pattern: "myapp://spent", exported: true }
          - { name: audit, pattern: "myapp://audit", exported: true }
          - { name: audited.closed, pattern: "myapp://audited/closed", exported: true }
          - { name: closed, pattern: "myapp://closed", exported: true }
          - { name: private, pattern: "myapp://private" }
          - { name: home, pattern: "myapp://home", exported: true }
        """

    static let rules = """
        interceptor { name = "raises", route = "error", run = function(req, ctx)
          error("boom")
        end }
        interceptor { name = "spins", route = "budget", run = function() while true do end end }
        interceptor { name = "returns-42", route = "verdict", run = function() return 42 end }
        interceptor { name = "spends-1", route = "spent", run = function() for _ = 1, 60000 do end end }
        interceptor { name = "spends-2", route = "spent", run = function() for _ = 1, 60000 do end end }
        interceptor { name = "spends-3", route = "spent", run = function() for _ = 1, 60000 do end end }
        interceptor { name = "audit", routes = { "audit", "audited.closed" }, priority = 1, on_error = "continue",
          run = function(req, ctx) error("audit broke") end }
        interceptor { name = "closer", routes = { "closed", "audited.closed" }, run = function()
          return reject("closed", 451)
        end }
        redirect { from = "myapp://loop/a", to = "myapp://loop/b" }
        redirect { from = "myapp://loop/b", to = "myapp://loop/a" }
        redirect { from = "myapp://old/home", to = "myapp://home" }
        fallback(function(req, ctx)
          if req.host == "nowhere" then error("no fallback for " .. req.url) end
        end)
        """

    /// The bundle with `tests` as its `tests/t.yaml`, and a decider for it whose rules have
    /// budgets small enough to cross quickly, and no time limit to cross first.
    static func bundle(tests: String) throws -> (RuleBundle, Decider) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "junction-outcome-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("tests"), withIntermediateDirectories: true)
        for (path, text) in [
            "manifest.yaml": "name: failing\nversion: 1\n", "routes.yaml": routes, "rules.lua": rules,
            "tests/t.yaml": tests,
        ] {
            try text.write(to: root.appendingPathComponent(path), atomically: true, encoding: .utf8)
        }
        let limits = SandboxLimits(instructions: 100_000, decisionInstructions: 150_000, decisionTime: .seconds(120))
        let bundle = try RuleBundle.load(directory: root.path, limits: limits)
        return (bundle, try Decider(bundle: bundle))
    }

    /// The outcome of one test opening `url` from `source` and expecting `expect` (a YAML
    /// flow mapping).
    static func outcome(_ url: String, source: String = "internal", expect: String) throws -> RuleTestOutcome {
        let (bundle, decider) = try bundle(
            tests: "tests:\n  - { name: t, open: \"\(url)\", source: \(source), expect: \(expect) }\n")
        return decider.run(try #require(bundle.tests.first))
    }

    // MARK: - Every failure kind against every expectation

    /// A way for a rule to fail, and how the test designates it.
    struct Failure: Sendable, CustomTestStringConvertible {
        let kind: String
        let url: String
        /// What `fails:` names it by: its name, or a fallback's `file:line`.
        let designation: String
        /// The rejection's cause, or `nil` when the failure carries on (on_error = continue).
        let cause: String?
        var testDescription: String { kind }
    }

    static let failures = [
        Failure(kind: "an error", url: "myapp://error", designation: "raises", cause: "rule_failed"),
        Failure(kind: "the rule's budget", url: "myapp://budget", designation: "spins", cause: "rule_failed"),
        Failure(
            kind: "a value that is not a verdict", url: "myapp://verdict", designation: "returns-42",
            cause: "rule_failed"),
        Failure(kind: "the decision's budget", url: "myapp://spent", designation: "spends-3", cause: "decision_budget"),
        Failure(kind: "a fallback's error", url: "myapp://nowhere", designation: "rules.lua:17", cause: "rule_failed"),
        Failure(kind: "on_error = continue", url: "myapp://audit", designation: "audit", cause: nil),
    ]

    /// An expectation, and whether a test giving it passes for a failure.
    struct Expecting: Sendable, CustomTestStringConvertible {
        let expect: @Sendable (Failure) -> String
        let passes: @Sendable (Failure) -> Bool
        let label: String
        var testDescription: String { label }
    }

    static let expectations = [
        Expecting(expect: { _ in "{ reject: true }" }, passes: { _ in false }, label: "reject: true"),
        Expecting(expect: { _ in "{ reject: boom }" }, passes: { _ in false }, label: "reject: reason"),
        Expecting(expect: { _ in "{ code: 500 }" }, passes: { _ in false }, label: "code: 500"),
        Expecting(expect: { _ in "{ redirect: none }" }, passes: { _ in false }, label: "redirect: none"),
        Expecting(expect: { _ in "{ route: audit }" }, passes: { _ in false }, label: "route:"),
        Expecting(expect: { _ in "{ fails: true }" }, passes: { _ in true }, label: "fails: true"),
        Expecting(
            expect: { "{ fails: \"\($0.designation)\" }" }, passes: { _ in true }, label: "fails: the rule"),
        Expecting(expect: { _ in "{ fails: other }" }, passes: { _ in false }, label: "fails: another rule"),
        Expecting(
            expect: { "{ fails: \"\($0.designation)\", code: 500 }" }, passes: { $0.cause != nil },
            label: "fails: the rule, code: 500"),
        Expecting(
            expect: { "{ fails: \"\($0.designation)\", cause: rule_failed }" }, passes: { $0.cause == "rule_failed" },
            label: "fails: the rule, cause: rule_failed"),
        Expecting(
            expect: { "{ fails: \"\($0.designation)\", route: audit }" }, passes: { $0.cause == nil },
            label: "fails: the rule, route: audit"),
    ]

    @Test(arguments: failures, expectations)
    func aFailedRulePassesOnlyATestThatExpectsIt(_ failure: Failure, _ expecting: Expecting) throws {
        let outcome = try Self.outcome(failure.url, expect: expecting.expect(failure))
        #expect(outcome.passed == expecting.passes(failure), "\(outcome.failures)")
        #expect(outcome.failedRules.count == 1)
        #expect(outcome.showsFailedRules == (!outcome.passed || expecting.label.hasPrefix("fails")))
        if let cause = failure.cause {
            guard case .reject(let rejection) = outcome.decision.outcome else {
                Issue.record("expected a rejection, got \(outcome.decision.summary)")
                return
            }
            #expect(rejection.cause.rawValue == cause)
        }
    }

    // MARK: - What a failure says

    @Test(arguments: [
        (
            "myapp://error", "{ reject: true }",
            [
                "expected a rejection by a rule or the access check, got a rule failure (cause rule_failed): "
                    + "rejected (500) by raises: rule \"raises\" failed: rules.lua:2: boom",
                "expected no rule to fail, but route raises (rules.lua:1) failed; if the test means it, add fails: "
                    + "raises",
            ]
        ),
        (
            "myapp://error", "{ code: 500 }",
            [
                "expected no rule to fail, but route raises (rules.lua:1) failed; if the test means it, add fails: "
                    + "raises"
            ]
        ),
        (
            "myapp://verdict", "{ fails: [returns-42, raises] }",
            [
                "expected a rule designated by \"raises\" (its name, file:line or part of its error) to fail, got "
                    + "failures of route returns-42 (rules.lua:5)"
            ]
        ),
        (
            "myapp://spent", "{ fails: spends-2 }",
            [
                "expected a rule designated by \"spends-2\" (its name, file:line or part of its error) to fail, got "
                    + "failures of route spends-3 (rules.lua:8)",
                "expected no other rule to fail, but route spends-3 (rules.lua:8) failed; if the test means it, add it "
                    + "to fails:",
            ]
        ),
        (
            "myapp://error", "{ fails: raises, cause: decision_budget }",
            [
                "expected cause decision_budget, got cause rule_failed: rejected (500) by raises: rule \"raises\" "
                    + "failed: rules.lua:2: boom"
            ]
        ),
        (
            "myapp://nowhere", "{ unmatched: true }",
            [
                "expected unmatched, got rejected (500) by fallback: rule \"fallback\" failed: rules.lua:18: no "
                    + "fallback for myapp://nowhere",
                "expected no rule to fail, but fallback (rules.lua:17) failed; if the test means it, add fails: "
                    + "rules.lua:17",
            ]
        ),
        (
            "myapp://audit", "{ route: audit }",
            [
                "expected no rule to fail, but route audit (rules.lua:9) failed; if the test means it, add fails: audit"
            ]
        ),
        (
            "myapp://home", "{ fails: true }",
            ["expected a rule to fail, got no failure: open home"]
        ),
        (
            "myapp://home", "{ fails: home }",
            [
                "expected a rule designated by \"home\" (its name, file:line or part of its error) to fail, got no "
                    + "failure: open home"
            ]
        ),
        // Deliberate refusals, and the decider's own.
        ("myapp://closed", "{ reject: closed, code: 451, cause: rule, redirect: none }", []),
        ("myapp://audited/closed", "{ reject: closed, fails: audit }", []),
        (
            "myapp://audited/closed", "{ reject: closed }",
            [
                "expected no rule to fail, but route audit (rules.lua:9) failed; if the test means it, add fails: audit"
            ]
        ),
        (
            "myapp://closed", "{ reject: open, code: 403, cause: not_exported }",
            [
                "expected cause not_exported, got cause rule: rejected (451) by closer: closed",
                "expected code 403, got 451: rejected (451) by closer: closed",
                "expected reason \"open\", got rejected (451) by closer: closed",
            ]
        ),
        (
            "myapp://loop/a", "{ reject: true }",
            [
                "expected a rejection by a rule or the access check, got the decider's own (cause redirect_loop): "
                    + "rejected (508): redirect loop: myapp://loop/a → myapp://loop/b → myapp://loop/a, after "
                    + "redirects myapp://loop/a → myapp://loop/b; to expect it, write cause: redirect_loop without "
                    + "reject:"
            ]
        ),
        ("myapp://loop/a", "{ cause: redirect_loop, code: 508 }", []),
        (
            "myapp://loop/a", "{ redirect: none, cause: redirect_loop }",
            [
                "expected no redirect, got rejected (508): redirect loop: myapp://loop/a → myapp://loop/b → "
                    + "myapp://loop/a, after redirects myapp://loop/a → myapp://loop/b"
            ]
        ),
        (
            "myapp://home", "{ code: 404, reason: gone }",
            ["expected a rejection with code 404 for \"gone\", got open home"]
        ),
        (
            "myapp://home", "{ reject: gone }",
            ["expected reject \"gone\", got open home"]
        ),
        (
            "myapp://old/home", "{ route: home, redirect: none }",
            ["expected no redirect, got open home, after redirects myapp://old/home → myapp://home"]
        ),
        (
            "myapp://home", "{ route: hom }",
            ["expected route hom (no route is named \"hom\"; did you mean \"home\"?), got open home"]
        ),
    ])
    func aFailedExpectationSaysWhatWasExpectedAndWhatHappened(_ url: String, _ expect: String, _ expected: [String])
        throws
    {
        let outcome = try Self.outcome(url, expect: expect)
        #expect(outcome.failures == expected)
    }

    @Test func anAccessRefusalSatisfiesReject() throws {
        let outcome = try Self.outcome("myapp://private", source: "push", expect: "{ reject: true, code: 403 }")
        #expect(outcome.passed, "\(outcome.failures)")
        #expect(outcome.failedRules.isEmpty && !outcome.showsFailedRules)
    }

    @Test func aFailedRuleIsReportedWithItsErrorItsPlaceAndWhatItDid() throws {
        let outcome = try Self.outcome("myapp://audited/closed", expect: "{ reject: closed, fails: audit }")
        #expect(outcome.passed && outcome.showsFailedRules)
        let rule = try #require(outcome.failedRules.first)
        #expect(rule.stage == .route && rule.name == "audit" && rule.location == "rules.lua:9")
        #expect(rule.error == "rules.lua:10: audit broke" && rule.consequence == "on_error = continue: carrying on")
        #expect(
            rule.description
                == "route audit (rules.lua:9) failed: rules.lua:10: audit broke; on_error = continue: carrying on")
    }

    @Test func anUnparsableURLIsNoRuleFailure() throws {
        let outcome = try Self.outcome("my app://x", expect: "{ cause: invalid_url, code: 400 }")
        #expect(outcome.passed, "\(outcome.failures)")
        #expect(outcome.failedRules.isEmpty)
    }
}
