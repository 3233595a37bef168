import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Testing

@Suite struct TestCommandTests {
    /// A bundle with one passing and one failing test.
    static func mixedBundle() throws -> String {
        try CLIRunner.folder([
            "manifest.yaml": "name: mixed\nversion: 1\n",
            "routes.yaml": "routes:\n  - { name: home, pattern: \"myapp://home\", exported: true, groups: [login] }\n",
            "rules.lua": """
            group("login", function(req, ctx)
              if ctx.user == nil then return gate("myapp://login") end
            end)
            fallback(function(req, ctx)
              if req.host == "never" then return reject("unused") end
            end)
            """,
            "tests/home.yaml": """
            tests:
              - name: guests are gated
                open: myapp://home
                expect: { gate: "myapp://login" }
              - name: this expectation is wrong
                open: myapp://home
                context: { user: { id: 1 } }
                expect: { route: elsewhere, params: { id: 3 } }
            """,
        ])
    }

    @Test func theExampleBundlePassesWithFullCoverage() throws {
        let result = try CLIRunner.run(
            ["test", "rules/example", "--coverage", "--threshold", "100"], in: CLIRunner.repositoryRoot)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let masked = result.stdout.replacing(/\(\d+\.\d\d s\)/, with: "(… s)")
        try CLIRunner.expectSnapshot(masked, named: "test-example.txt")
    }

    @Test func aFailureShowsExpectedActualAndTheTraceAndExitsOne() throws {
        let bundle = try Self.mixedBundle()
        defer { try? FileManager.default.removeItem(atPath: bundle) }
        let result = try CLIRunner.run(["test", bundle])
        #expect(result.status == 1)
        #expect(result.stdout.contains("  ok   1 guests are gated"))
        #expect(result.stdout.contains("  FAIL 2 this expectation is wrong"))
        #expect(
            result.stdout.contains("        expected route elsewhere (no route is named \"elsewhere\"), got open home"))
        #expect(result.stdout.contains("        expected params.id = 3, got nothing"))
        #expect(result.stdout.contains("          2. group login (rules.lua:1) → continue"))
        #expect(result.stdout.contains("2 tests: 1 passed, 1 failed"))
    }

    @Test func coverageBelowTheThresholdFails() throws {
        let bundle = try Self.mixedBundle()
        defer { try? FileManager.default.removeItem(atPath: bundle) }
        let result = try CLIRunner.run(["test", bundle, "--run", "gated", "--threshold", "90"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("1 test: 1 passed, 0 failed"))
        #expect(result.stdout.contains("coverage: lines 50.0% (1 of 2), rules 50.0% (1 of 2)"))
        #expect(result.stdout.contains("rules.lua: 50.0%, never ran: lines 5"))
        #expect(result.stdout.contains("fallback (rules.lua:4) never ran"))
        #expect(result.stderr.contains("mixed@1: line coverage 50.0% is below the threshold of 90.0%"))
    }

    @Test func aBundleThatDoesNotLoadExitsTwo() throws {
        let bundle = try CLIRunner.folder([
            "manifest.yaml": "name: broken\nversion: 1\n",
            "routes.yaml": "routes: []\n",
            "rules.lua": "redirect { from = 'myapp://a/:id', to = 'myapp://b/{nope}' }\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: bundle) }
        let result = try CLIRunner.run(["test", bundle, try Self.mixedBundle()])
        #expect(result.status == 2)
        #expect(result.stdout.contains("\(bundle): the bundle does not load"))
        #expect(result.stdout.contains("\(bundle)/rules.lua:1:1: error: redirect to \"myapp://b/{nope}\""))
    }

    @Test func tapNumbersEveryTestAndExplainsFailures() throws {
        let bundle = try Self.mixedBundle()
        defer { try? FileManager.default.removeItem(atPath: bundle) }
        let lines = try CLIRunner.run(["test", bundle, "--format", "tap"]).stdout.split(separator: "\n").map(
            String.init)
        #expect(
            Array(lines.prefix(4)) == [
                "TAP version 14", "1..2", "ok 1 - guests are gated", "not ok 2 - this expectation is wrong",
            ])
        #expect(
            lines.contains("    - \"expected route elsewhere (no route is named \\\"elsewhere\\\"), got open home\""))
        #expect(lines.last == "  ...")
    }

    @Test func junitIsWellFormedXML() throws {
        let bundle = try Self.mixedBundle()
        defer { try? FileManager.default.removeItem(atPath: bundle) }
        let result = try CLIRunner.run(["test", bundle, "--format", "junit"])
        let document = try XMLDocument(data: Data(result.stdout.utf8))
        let suites = try document.nodes(forXPath: "/testsuites/testsuite")
        #expect(suites.count == 1)
        #expect(try document.nodes(forXPath: "//testcase").count == 2)
        #expect(try document.nodes(forXPath: "//testcase/failure").count == 1)
        #expect((suites.first as? XMLElement)?.attribute(forName: "name")?.stringValue == "mixed@1")
    }

    @Test func jsonCarriesEveryTestWithItsDecision() throws {
        let bundle = try Self.mixedBundle()
        defer { try? FileManager.default.removeItem(atPath: bundle) }
        let result = try CLIRunner.run(["test", bundle, "--format", "json", "--coverage"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(root["passed"] as? Int == 1 && root["failed"] as? Int == 1)
        #expect((root["lua"] as? String)?.hasPrefix("Lua 5.4.") == true, "the release the rules ran on")
        let bundles = try #require(root["bundles"] as? [[String: Any]])
        let tests = try #require(bundles.first?["tests"] as? [[String: Any]])
        let decision = try #require(tests.first?["decision"] as? [String: Any])
        #expect(decision["outcome"] as? String == "gate" && decision["gate"] as? String == "myapp://login")
        let coverage = try #require(bundles.first?["coverage"] as? [String: Any])
        #expect(coverage["lines_percent"] as? Double == 50)
    }

    // MARK: - Rules that fail

    /// `junction test` on the fixture bundle `test-failures`, run from the fixtures'
    /// folder so that paths in the output are the same on every machine.
    static func runFailures(_ arguments: [String]) throws -> CLIRunner.Result {
        let fixtures = URL(fileURLWithPath: try CLIRunner.fixture("test-failures")).deletingLastPathComponent()
        return try CLIRunner.run(["test", "test-failures"] + arguments, in: fixtures)
    }

    @Test func aRuleThatFailsPassesOnlyTheTestsThatExpectItAndEveryReportShowsItsError() throws {
        let result = try Self.runFailures([])
        #expect(result.status == 1)
        let masked = result.stdout.replacing(/\(\d+\.\d\d s\)/, with: "(… s)")
        try CLIRunner.expectSnapshot(masked, named: "test-failures.txt")
    }

    @Test func tapShowsTheRulesThatFailedAlsoUnderPassingTests() throws {
        let result = try Self.runFailures(["--format", "tap"])
        #expect(result.status == 1)
        try CLIRunner.expectSnapshot(result.stdout, named: "test-failures.tap")
    }

    @Test func junitShowsTheRulesThatFailedInFailuresAndSystemOut() throws {
        let result = try Self.runFailures(["--format", "junit"])
        #expect(result.status == 1)
        let masked = result.stdout.replacing(/time="\d+\.\d+"/, with: "time=\"…\"")
        try CLIRunner.expectSnapshot(masked, named: "test-failures.junit.xml")
        let document = try XMLDocument(data: Data(result.stdout.utf8))
        #expect(try document.nodes(forXPath: "//testcase/failure").count == 4)
        #expect(try document.nodes(forXPath: "//testcase/system-out").count == 2)
    }

    @Test func jsonListsEachTestsFailedRulesWithTheirErrorAndPlace() throws {
        let result = try Self.runFailures(["--format", "json", "--run", "^the audit breaks"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let bundles = try #require(root["bundles"] as? [[String: Any]])
        let test = try #require((bundles.first?["tests"] as? [[String: Any]])?.first)
        #expect(test["passed"] as? Bool == true)
        let failed = try #require(test["rule_failures"] as? [[String: String]])
        #expect(
            failed == [
                [
                    "stage": "global", "name": "push-audit", "location": "rules.lua:2",
                    "error": "rules.lua:5: attempt to concatenate a nil value (field 'campaign')",
                    "consequence": "on_error = continue: carrying on",
                ]
            ])
    }

    // MARK: - Selecting tests

    @Test func runSelectingNoTestExitsOneAndSaysHowManyThereAre() throws {
        let result = try Self.runFailures(["--run", "no such test"])
        #expect(result.status == 1)
        let masked = result.stdout.replacing(/\(\d+\.\d\d s\)/, with: "(… s)")
        #expect(masked == "test-failures (failures@2)\n  0 tests: 0 passed, 0 failed (… s)\n")
        #expect(
            result.stderr
                == "no test name matches --run \"no such test\" (the bundle has 8 tests); a name matches when the "
                + "regular expression matches any part of it\n")
    }

    @Test func runSelectingNoTestInAnyOfSeveralBundlesCountsThemAll() throws {
        let bundle = try Self.mixedBundle()
        defer { try? FileManager.default.removeItem(atPath: bundle) }
        let result = try Self.runFailures([bundle, "--run", "^zzz"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "no test name matches --run \"^zzz\" (the 2 bundles have 10 tests); a name matches when the "
                + "regular expression matches any part of it\n")
    }

    @Test func runSelectingTestsOfOneBundleOnlyPasses() throws {
        let bundle = try Self.mixedBundle()
        defer { try? FileManager.default.removeItem(atPath: bundle) }
        let result = try Self.runFailures([bundle, "--run", "^the shop closes"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("  ok   1 the shop closes at night") && result.stderr.isEmpty)
    }

    @Test(arguments: [
        (["test"], "give at least one bundle folder"),
        (["test", "x", "--threshold", "120"], "--threshold is a percentage from 0 to 100"),
        (["test", "x", "--run", "("], "--run \"(\" is not a valid regular expression"),
    ])
    func badArgumentsAreExplained(arguments: [String], message: String) throws {
        let result = try CLIRunner.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message))
    }
}
