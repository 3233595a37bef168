import Foundation
import Testing

/// What every command that loads a bundle shares: the path must be a bundle's folder, and
/// the bundle's tests are checked against its manifest's `context:` and `sources:`.
@Suite struct BundleInputCommandTests {
    /// `junction test`, `eval` and `check` all say so when the bundle is not a directory.
    @Test(arguments: [["test"], ["eval", "myapp://home", "--bundle"], ["check"]])
    func aPathThatIsNotADirectorySaysSo(command: [String]) throws {
        let missing = try CLIRunner.run(command + ["/nonexistent"])
        #expect(missing.status == 2)
        #expect((missing.stdout + missing.stderr).contains("/nonexistent:1:1: error: no such directory"))
        let file = try CLIRunner.run(command + ["README.md"], in: CLIRunner.repositoryRoot)
        #expect(file.status == 2)
        #expect((file.stdout + file.stderr).contains("README.md:1:1: error: not a directory"))
    }

    /// The fixture's test expects what the rule sees of a context the schema typed:
    /// `app_version: 6.0` is the text "6.0", `device_id: 123` the text "123".
    @Test func testRunsTestsWhoseContextTheSchemaTyped() throws {
        let bundle = try CLIRunner.fixture("context-schema")
        let result = try CLIRunner.run(["test", bundle])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("1 test: 1 passed, 0 failed"))
    }

    @Test func testReportsAContextTheSchemaRefusesAtItsLine() throws {
        let bundle = try CLIRunner.folder([
            "manifest.yaml": "name: typed\nversion: 1\ncontext: { hour: int }\n",
            "routes.yaml": "routes: []\n",
            "tests/a.yaml":
                "tests:\n  - open: myapp://a\n    context: { hour: \"22\" }\n    expect: { unmatched: true }\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: bundle) }
        let result = try CLIRunner.run(["test", bundle])
        #expect(result.status == 2)
        #expect(
            result.stdout + result.stderr == """
                \(bundle): the bundle does not load
                  \(bundle)/tests/a.yaml:3:22: error: context hour is declared int, not the text "22"; write 22 without quotes

                """)
    }
}
