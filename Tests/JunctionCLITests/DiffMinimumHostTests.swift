import Foundation
import Testing

/// Issue 30: a device whose app is older than the new bundle's `minimum_host_version`
/// refuses it and keeps yesterday's, so its links are not changes: `junction diff` counts
/// them apart, in every format, and no check counts them.
@Suite struct DiffMinimumHostTests {
    /// Tonight's change (live rooms sent to H5) in a bundle that needs app 6.1 or later.
    static func tonight(minimum: String?) throws -> String {
        var edits = DiffCommandTests.changes[1].edits
        edits["manifest.yaml"] = [
            (#"minimum_host_version: "5.0.0""#, minimum.map { "minimum_host_version: \"\($0)\"" } ?? "")
        ]
        return try DiffCommandTests.edited(edits)
    }

    /// One line per app version; a line without a context is decided like any other.
    static let corpus =
        [
            #"{"url": "myapp://live/1", "context": {"app_version": "6.0.9"}}"#,
            #"{"url": "myapp://live/2", "context": {"app_version": "5.3.0"}}"#,
            #"{"url": "myapp://live/3", "context": {"app_version": "6.1.0-beta.1"}}"#,
            #"{"url": "myapp://live/4", "context": {"app_version": "6.1"}}"#,
            #"{"url": "myapp://live/5", "context": {"app_version": "6.2.0"}}"#,
            #"{"url": "myapp://live/6", "context": {"user": {"id": 1}}}"#,
            "myapp://live/7",
        ].joined(separator: "\n") + "\n"

    @Test func linksFromAppsBelowTheMinimumKeepYesterdaysBundleAndAreNotChanges() throws {
        let tonight = try Self.tonight(minimum: "6.1")
        let corpus = try EvalCorpusTests.corpus(Self.corpus)
        let arguments = ["diff", DiffCommandTests.example, tonight, "--urls", corpus]

        let json = try CLIRunner.run(arguments + ["--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let report = try DiffCommandTests.object(json.stdout)
        // 6.0.9, 5.3.0 and a 6.1.0 beta (a pre-release comes before its release) are below.
        #expect(report["requests"] as? Int == 4)
        #expect(report["changed"] as? Int == 4)
        #expect(DiffCommandTests.counts(report) == ["now_handed_over": 4])
        let below = try #require(report["below_minimum_host_version"] as? [String: Any])
        #expect(below["minimum_host_version"] as? String == "6.1.0")
        #expect(below["requests"] as? Int == 3)
        #expect(below["keep"] as? String == "example@3")
        let samples = (report["kinds"] as? [String: [String: Any]])?["now_handed_over"]?["samples"] as? [[String: Any]]
        #expect(samples?.map { $0["line"] as? Int } == [4, 5, 6, 7])

        let text = try CLIRunner.run(arguments + ["--samples", "0"])
        #expect(text.status == 0)
        #expect(
            text.stdout.contains(
                "4 requests decided (7 lines of \(corpus)), 4 changed (100.0%)\n"
                    + "3 requests from app versions below 6.1.0 keep yesterday's bundle (example@3): "
                    + "example@3 needs 6.1.0 or later (minimum_host_version); not decided, not counted as changes\n"),
            "\(text.stdout)")

        let html = try CLIRunner.run(arguments + ["--format", "html"])
        #expect(html.stdout.contains(#"<p class="below-minimum" id="below-minimum" data-count="3">3 requests from"#))
    }

    @Test func noCheckCountsThem() throws {
        let tonight = try Self.tonight(minimum: "6.1")
        let corpus = try EvalCorpusTests.corpus(Self.corpus)
        let arguments = ["diff", DiffCommandTests.example, tonight, "--urls", corpus, "--max-changes"]
        #expect(try CLIRunner.run(arguments + ["4"]).status == 0)
        #expect(try CLIRunner.run(arguments + ["3"]).status == 1)
    }

    /// The version may come from --context for the lines that have no context of their own.
    @Test func theContextOptionsSayTheAppVersionOfLinesWithoutOne() throws {
        let tonight = try Self.tonight(minimum: "6.1")
        let corpus = try EvalCorpusTests.corpus("myapp://live/1\nmyapp://live/2\n")
        let result = try CLIRunner.run([
            "diff", DiffCommandTests.example, tonight, "--urls", corpus, "--context", "app_version=6.0",
            "--format", "json",
        ])
        let report = try DiffCommandTests.object(result.stdout)
        #expect(report["requests"] as? Int == 0)
        #expect((report["below_minimum_host_version"] as? [String: Any])?["requests"] as? Int == 2)
    }

    @Test func withoutAMinimumEveryLinkIsDecided() throws {
        let tonight = try Self.tonight(minimum: nil)
        let corpus = try EvalCorpusTests.corpus(Self.corpus)
        let json = try CLIRunner.run([
            "diff", DiffCommandTests.example, tonight, "--urls", corpus, "--format", "json",
        ])
        let report = try DiffCommandTests.object(json.stdout)
        #expect(report["requests"] as? Int == 7)
        let below = try #require(report["below_minimum_host_version"] as? [String: Any])
        #expect(below["minimum_host_version"] is NSNull)
        #expect(below["requests"] as? Int == 0)
        let text = try CLIRunner.run(["diff", DiffCommandTests.example, tonight, "--urls", corpus])
        #expect(!text.stdout.contains("keep yesterday's bundle"))
    }
}
