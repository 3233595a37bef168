import Foundation
import Testing

@Suite struct CheckCommandTests {
    @Test func aCleanBundleIsOkAndExitsZero() throws {
        let bundle = try CLIRunner.fixture("check-clean")
        let result = try CLIRunner.run(["check", bundle])
        #expect(result.status == 0)
        #expect(result.stdout == "\(bundle): ok\n")
    }

    @Test func warningsPrintOneALineAndExitZeroUnlessStrict() throws {
        let bundle = try CLIRunner.fixture("check-warnings")
        let expected = """
            \(bundle)/routes.yaml:2:5: warning: group "social" of route "home" has no group() policy in the bundle, so the bundle guards nothing there (a Swift interceptor the app registers for the group cannot be seen by this check) — add group("social", function(req, ctx) ... end) to a file of the bundle, or remove the group from the route [group-without-policy]
            \(bundle)/rules.lua:1:7: warning: group("legacy") is a policy for a group no route lists; add "legacy" to the groups of its routes in the route table, or remove the policy [unused-group-policy]
            \(bundle): 0 errors, 2 warnings

            """
        let result = try CLIRunner.run(["check", bundle])
        #expect(result.status == 0)
        #expect(result.stdout == expected)
        let strict = try CLIRunner.run(["check", "--strict", bundle])
        #expect(strict.status == 1)
        #expect(strict.stdout == expected)
    }

    @Test func anErrorFindingExitsOne() throws {
        let bundle = try CLIRunner.fixture("check-cycle")
        let result = try CLIRunner.run(["check", bundle])
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                \(bundle)/rules.lua:1:37: error: redirect cycle: "myapp://a" (rules.lua:1) → "myapp://b/**" (rules.lua:2) → "myapp://a"; myapp://a → myapp://b → myapp://a is refused as a redirect loop — change a target or remove one of the redirects [redirect-cycle]
                \(bundle): 1 error, 0 warnings

                """)
    }

    @Test func mistakesInTheCodeAreErrorsAtTheirColumn() throws {
        let bundle = try CLIRunner.fixture("check-code")
        let result = try CLIRunner.run(["check", bundle])
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                \(bundle)/rules.lua:2:52: error: req.source is compared with "pusj", which is not a request source of this bundle (internal, push, universal_link, h5, external, mini_program), so no request has it; did you mean "push"? — fix the spelling, or declare the source in the manifest's sources: list [unknown-source]
                \(bundle)/rules.lua:3:3: error: this function assigns the global "seen", but globals are read-only once the bundle has loaded, so this fails whenever it runs — make it a local (local seen = …), or define the global at the top level of the file [global-assignment]
                \(bundle)/rules.lua:4:10: error: global "rolout" is not defined: neither the sandbox nor the bundle's files define it, so it is nil here; did you mean "rollout"? — fix the name, or define it at the top level of one of the bundle's files [undefined-global]
                \(bundle): 3 errors, 0 warnings

                """)
    }

    @Test func aBundleThatDoesNotLoadPrintsItsDiagnosticsAndExitsTwo() throws {
        let bundle = try CLIRunner.fixture("check-broken")
        let result = try CLIRunner.run(["check", bundle])
        #expect(result.status == 2)
        #expect(
            result.stdout == """
                \(bundle)/rules.lua:2:1: error: unexpected symbol near <eof> [syntax] [load-error]
                \(bundle): does not load (1 error)

                """)
        let missing = try CLIRunner.run(["check", "/nonexistent-bundle"])
        #expect(missing.status == 2)
        #expect(missing.stdout.contains("/nonexistent-bundle:1:1: error: no such directory"))
    }

    @Test(arguments: [
        ("check-clean", 0, 0, 0, [String]()),
        ("check-warnings", 0, 0, 2, ["group-without-policy", "unused-group-policy"]),
        ("check-cycle", 1, 1, 0, ["redirect-cycle"]),
        ("check-broken", 2, 1, 0, ["load-error"]),
        ("check-code", 1, 3, 0, ["unknown-source", "global-assignment", "undefined-global"]),
    ])
    func printsOneJSONDocumentInTheContractShape(
        fixture: String, status: Int32, errors: Int, warnings: Int, codes: [String]
    ) throws {
        let bundle = try CLIRunner.fixture(fixture)
        let result = try CLIRunner.run(["check", "--format", "json", bundle])
        #expect(result.status == status)
        #expect(result.stdout.hasSuffix("}\n") && result.stdout.filter { $0 == "\n" }.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["bundle", "errors", "warnings", "findings"])
        #expect(object["bundle"] as? String == bundle)
        #expect(object["errors"] as? Int == errors)
        #expect(object["warnings"] as? Int == warnings)
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.map { $0["code"] as? String } == codes)
        for finding in findings {
            #expect(Set(finding.keys) == ["severity", "code", "message", "file", "line", "column"])
            #expect(["error", "warning"].contains(finding["severity"] as? String))
            #expect((finding["file"] as? String)?.hasPrefix(bundle + "/") == true)
            #expect((finding["line"] as? Int ?? 0) >= 1 && (finding["column"] as? Int ?? 0) >= 1)
        }
    }

    @Test func theExampleBundleLoadsAndHasNoErrors() throws {
        let bundle = CLIRunner.repositoryRoot.appendingPathComponent("rules/example").path
        let result = try CLIRunner.run(["check", bundle])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(!result.stdout.contains("unreachable-route"), "\(result.stdout)")
    }
}
