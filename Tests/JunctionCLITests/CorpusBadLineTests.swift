import JunctionTooling
import Foundation
import Testing

@testable import JunctionCLI

/// Issue 30: one bad line of a day's logs — a `6.1 beta` where a version goes, JSON cut
/// short — aborted the whole diff. Bad lines are now counted, shown with their place and
/// skipped; the exit status says so; `--strict-corpus` stops at the first, as before.
@Suite struct CorpusBadLineTests {
    /// A corpus line `junction diff` cannot read, and what it says is wrong with it.
    static let badLines: [(line: String, message: String)] = [
        (
            #"{"url": "myapp://home", "context": {"app_version": "6.1 beta"}}"#,
            "context: app_version: expected version, found a string that is not one"
        ),
        (#"{"url": "myapp://home""#, "not a JSON object"),
        (#"{"url": "myapp://home", "when": 1}"#, #"unknown field "when""#),
        (#"{"source": "push"}"#, #""url" is missing or not text"#),
        (#"{"url": "myapp://home", "context": []}"#, #""context" is not an object"#),
        ("myapp://home and more", "a URL has no spaces"),
        (#"{"url": "myapp://home", "source": "pigeon"}"#, #"source: source "pigeon" is neither standard"#),
        ("myapp://" + String(repeating: "a", count: 300_000), "the line is longer than 65536 bytes"),
    ]

    static let example = DiffCommandTests.example

    @Test func badLinesAreCountedShownWithTheirPlaceAndSkipped() throws {
        let lines = ["myapp://live/1"] + Self.badLines.map(\.line) + ["myapp://live/2", "", "# a comment"]
        let corpus = try EvalCorpusTests.corpus(lines.joined(separator: "\n") + "\n")
        let tonight = try DiffCommandTests.edited(DiffCommandTests.changes[1].edits)

        let json = try CLIRunner.run(["diff", Self.example, tonight, "--urls", corpus, "--format", "json"])
        #expect(json.status == 4, "\(json.stderr)")
        let report = try DiffCommandTests.object(json.stdout)
        #expect(report["requests"] as? Int == 2)
        #expect(report["lines"] as? Int == lines.count)
        #expect(DiffCommandTests.counts(report) == ["now_handed_over": 2])
        let skipped = try #require(report["skipped_lines"] as? [String: Any])
        #expect(skipped["count"] as? Int == Self.badLines.count)
        let first = try #require(skipped["first"] as? [[String: Any]])
        #expect(first.map { $0["line"] as? Int } == Array(2...Self.badLines.count + 1))
        #expect(first.allSatisfy { $0["file"] as? String == corpus })
        for (found, bad) in zip(first, Self.badLines) {
            #expect((found["message"] as? String)?.hasPrefix(bad.message) == true, "\(found)")
        }
        #expect(json.stderr.contains("diff: \(Self.badLines.count) corpus lines skipped, the first: \(corpus):2: "))

        let text = try CLIRunner.run(["diff", Self.example, tonight, "--urls", corpus, "--samples", "0"])
        #expect(text.status == 4)
        #expect(
            text.stdout.contains("\n8 corpus lines skipped: they cannot be read (--strict-corpus stops at the first)\n")
        )
        #expect(text.stdout.contains("\n  \(corpus):2: \(Self.badLines[0].message)\n"), "\(text.stdout)")
        #expect(text.stdout.contains("\n  \(corpus):9: the line is longer than 65536 bytes"), "\(text.stdout)")

        let html = try CLIRunner.run(["diff", Self.example, tonight, "--urls", corpus, "--format", "html"])
        #expect(html.status == 4)
        #expect(html.stdout.contains(#"<section class="skipped" id="skipped" data-count="8">"#))
        #expect(html.stdout.contains(#"<li data-line="4"><code>"#))
        #expect(html.stdout.contains("unknown field &quot;when&quot;"), "escaped")
    }

    @Test func strictCorpusStopsAtTheFirstBadLine() throws {
        for bad in Self.badLines {
            let corpus = try EvalCorpusTests.corpus("myapp://home\n" + bad.line + "\nmyapp://home\n")
            let result = try CLIRunner.run(["diff", Self.example, Self.example, "--urls", corpus, "--strict-corpus"])
            #expect(result.status == 3)
            #expect(result.stderr.hasPrefix("\(corpus):2: error: \(bad.message)"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    /// However many lines are bad, ten are kept to show; the good lines after thousands
    /// of bad ones — more than a batch — are still decided.
    @Test func onlyTheFirstTenAreKeptAndTheRestCounted() throws {
        let bad = (0..<5_000).map { "{\"url\": \"myapp://home\", \"n\": \($0)}" }
        let corpus = try EvalCorpusTests.corpus((bad + ["myapp://home", "myapp://live/1"]).joined(separator: "\n"))
        let json = try CLIRunner.run(["diff", Self.example, Self.example, "--urls", corpus, "--format", "json"])
        #expect(json.status == 4)
        let report = try DiffCommandTests.object(json.stdout)
        #expect(report["requests"] as? Int == 2)
        let skipped = try #require(report["skipped_lines"] as? [String: Any])
        #expect(skipped["count"] as? Int == 5_000)
        #expect((skipped["first"] as? [[String: Any]])?.map { $0["line"] as? Int } == Array(1...10))
        let text = try CLIRunner.run(["diff", Self.example, Self.example, "--urls", corpus])
        #expect(text.stdout.contains("\n  … and 4,990 more\n"), "\(text.stdout)")
    }

    /// Each exit status answers one question: 1 a check failed (lines skipped or not),
    /// 4 the checks pass on a corpus with lines skipped, 0 all is well.
    @Test func theExitStatusTellsFailedChecksFromSkippedLines() throws {
        let tonight = try DiffCommandTests.edited(DiffCommandTests.changes[2].edits)
        let clean = "myapp://nothing/1\nmyapp://home\n"
        let cases: [(corpus: String, options: [String], status: Int32)] = [
            (clean, [], 0),
            (clean, ["--max-changes", "0"], 1),
            (clean + "{bad\n", [], 4),
            (clean + "{bad\n", ["--max-changes", "0"], 1),
            (clean + "{bad\n", ["--fail-on", "now_unmatched"], 1),
            (clean + "{bad\n", ["--max-changes", "1"], 4),
            (clean + "{bad\n", ["--strict-corpus"], 3),
        ]
        for (text, options, status) in cases {
            let corpus = try EvalCorpusTests.corpus(text)
            let result = try CLIRunner.run(["diff", Self.example, tonight, "--urls", corpus] + options)
            #expect(result.status == status, "\(text) \(options): \(result.stderr)")
        }
    }

    /// A line too long is refused and the reader goes on after it, keeping no more of it
    /// than a chunk at a time — in the middle of the file and at its end without a newline.
    @Test func aLineTooLongIsSteppedOverAndTheNextLinesRead() throws {
        let long = "myapp://" + String(repeating: "a", count: 1_000_000)
        let corpus = try EvalCorpusTests.corpus(
            ["myapp://user/1", long, "myapp://user/2", long].joined(separator: "\n"))
        var reader = try CorpusReader(path: corpus)
        var urls: [String] = []
        var refused: [Int] = []
        for _ in 0..<10 {
            let (entries, failure) = reader.nextBatch()
            urls += entries.map(\.url)
            if let failure {
                #expect(failure.message.hasPrefix("the line is longer than 65536 bytes"))
                refused.append(failure.line)
            } else if entries.isEmpty {
                break
            }
        }
        #expect(urls == ["myapp://user/1", "myapp://user/2"])
        #expect(refused == [2, 4])
        #expect(reader.lines == 4)
    }
}
