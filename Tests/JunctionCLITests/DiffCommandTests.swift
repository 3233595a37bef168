import Foundation
import JunctionTestSupport
import Testing

/// `junction diff OLD NEW --urls FILE`: tonight's change decided over a corpus under both
/// bundles, each change counted by kind, with samples, checks and exit codes.
@Suite struct DiffCommandTests {
    static let example = CLIRunner.repositoryRoot.appendingPathComponent("rules/example").path

    /// One of tonight's changes to the example bundle, and what it does to a corpus.
    struct Change: CustomTestStringConvertible, Sendable {
        let name: String
        /// Files of the bundle rewritten: path → (text replaced → replacement), or appended
        /// when the text to replace is empty.
        let edits: [String: [(String, String)]]
        let corpus: [String]
        let kinds: [String: Int]
        var testDescription: String { name }
    }

    static let changes: [Change] = [
        Change(
            name: "the checkout v2 route removed: the fallback sends it to the upgrade page",
            edits: [
                "routes.yaml": [
                    (
                        "  - name: checkout.v2\n    pattern: myapp://checkout/v2\n"
                            + "    exported: true         # links to checkout from push and H5 are redirected here\n"
                            + "    groups: [login]\n", ""
                    )
                ]
            ],
            corpus: [
                #"{"url": "myapp://checkout/v2", "context": {"user": {"id": 3}}}"#, "myapp://checkout/v2",
                "myapp://home",
            ],
            kinds: ["other_route": 1, "no_longer_gated": 1]),
        Change(
            name: "live rooms sent to H5",
            edits: [
                "redirects.lua": [
                    ("", "\nredirect { from = \"myapp://live/:room\", to = \"https://m.example.com/live/{room}\" }\n")
                ]
            ],
            corpus: ["myapp://live/1", "myapp://live/2", "myapp://user/1"],
            kinds: ["now_handed_over": 2]),
        Change(
            name: "the fallback removed",
            edits: ["fallback.lua": [("return redirect(", "return nil, (")]],
            corpus: ["myapp://nothing/1", "myapp://nothing/2", "myapp://nothing/1", "https://elsewhere.example/x"],
            kinds: ["now_unmatched": 3]),
        Change(
            name: "an interceptor that fails",
            edits: [
                "interceptors.lua": [
                    ("if req.source == \"push\" then", "if req.source.missing.field == \"push\" then")
                ]
            ],
            corpus: ["myapp://home", "myapp://user/1"],
            kinds: ["rule_now_fails": 2]),
        Change(
            name: "the login policy closed to minors",
            edits: [
                "policies.lua": [
                    (
                        "  if ctx.user == nil then\n",
                        "  if ctx.user ~= nil and ctx.user.age ~= nil and ctx.user.age < 18 then return reject(\"adults only\", 403) end\n  if ctx.user == nil then\n"
                    )
                ]
            ],
            corpus: [
                #"{"url": "myapp://moments/1", "context": {"user": {"id": 1, "age": 12}}}"#,
                #"{"url": "myapp://moments/1", "context": {"user": {"id": 2, "age": 30}}}"#,
                "myapp://moments/1",
            ],
            kinds: ["now_rejected": 1]),
        Change(name: "nothing changed", edits: [:], corpus: ["myapp://home", "myapp://live/3"], kinds: [:]),
    ]

    @Test(arguments: changes)
    func countsEachKindOfChange(_ change: Change) throws {
        let tonight = try Self.edited(change.edits)
        let corpus = try EvalCorpusTests.corpus(change.corpus.joined(separator: "\n") + "\n")
        let result = try CLIRunner.run(["diff", Self.example, tonight, "--urls", corpus, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try Self.object(result.stdout)
        #expect(report["requests"] as? Int == change.corpus.count)
        #expect(report["changed"] as? Int == change.kinds.values.reduce(0, +))
        #expect(Self.counts(report) == change.kinds)
        // Every kind is in the document, found or not: checks can read any of them.
        #expect((report["kinds"] as? [String: Any])?.count == 17)
    }

    @Test func aSampleShowsBothDecisionsAndWhereTheyPart() throws {
        let tonight = try Self.edited(Self.changes[1].edits)
        let corpus = try EvalCorpusTests.corpus("myapp://live/1\nmyapp://live/1\nmyapp://live/2\n")
        let result = try CLIRunner.run(["diff", Self.example, tonight, "--urls", corpus, "--format", "json"])
        let kinds = try #require(try Self.object(result.stdout)["kinds"] as? [String: Any])
        let handedOver = try #require(kinds["now_handed_over"] as? [String: Any])
        let samples = try #require(handedOver["samples"] as? [[String: Any]])
        #expect(samples.map { $0["url"] as? String } == ["myapp://live/1", "myapp://live/2"], "distinct URLs")
        let first = samples[0]
        #expect(first["source"] as? String == "internal")
        #expect(first["line"] as? Int == 1)
        #expect((first["old"] as? [String: Any])?["route"] as? String == "live.room")
        #expect((first["new"] as? [String: Any])?["outcome"] as? String == "hand_over")
        let parts = try #require(first["parts_at"] as? [String: Any])
        #expect(parts["step"] as? Int == 1)
        #expect((parts["new"] as? String)?.hasPrefix("redirect myapp://live/:room (redirects.lua:") == true)

        let text = try CLIRunner.run(["diff", Self.example, tonight, "--urls", corpus])
        #expect(text.stdout.contains("3 requests decided (3 lines of \(corpus)), 3 changed (100.0%)"))
        #expect(text.stdout.contains("  3  now handed over [now_handed_over]"))
        #expect(text.stdout.contains("    parts at step 1:\n      old: match live.room: myapp://live/:room\n"))
    }

    /// Tonight's three changes at once: each kind is broken down by the redirect, rule or
    /// route where the decisions part, most frequent first, in every format.
    static let threeChanges: [String: [(String, String)]] = [
        "redirects.lua": [
            ("", "\nredirect { from = \"myapp://live/:room\", to = \"https://m.example.com/live/{room}\" }\n")
        ],
        "fallback.lua": [("return redirect(", "return nil, (")],
        "routes.yaml": [
            (
                "  - name: checkout.v2\n    pattern: myapp://checkout/v2\n"
                    + "    exported: true         # links to checkout from push and H5 are redirected here\n"
                    + "    groups: [login]\n", ""
            )
        ],
    ]

    @Test func eachKindIsBrokenDownByWhereTheDecisionsPart() throws {
        let tonight = try Self.edited(Self.threeChanges)
        let corpus = try EvalCorpusTests.corpus(
            "myapp://live/1\nmyapp://live/2\nmyapp://nothing/1\nmyapp://checkout/v2\nmyapp://checkout/v2?x=1\n"
                + "myapp://live/3\nmyapp://home\n")
        let json = try CLIRunner.run(["diff", Self.example, tonight, "--urls", corpus, "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let kinds = try #require(try Self.object(json.stdout)["kinds"] as? [String: [String: Any]])
        let unmatched = try #require(kinds["now_unmatched"]?["causes"] as? [[String: Any]])
        #expect(unmatched.map { $0["text"] as? String } == ["route checkout.v2", "rule fallback.lua:7"])
        #expect(unmatched.map { $0["count"] as? Int } == [2, 1])
        #expect(unmatched[0]["kind"] as? String == "route")
        #expect(unmatched[0]["name"] as? String == "checkout.v2")
        #expect(unmatched[0]["location"] is NSNull)
        #expect(unmatched[1]["kind"] as? String == "rule")
        #expect(unmatched[1]["stage"] as? String == "fallback")
        #expect(unmatched[1]["name"] is NSNull)
        #expect(unmatched[1]["location"] as? String == "fallback.lua:7")
        let handedOver = try #require(kinds["now_handed_over"]?["causes"] as? [[String: Any]])
        #expect(handedOver.map { $0["text"] as? String } == ["redirect myapp://live/:room (redirects.lua:18)"])
        #expect(handedOver.map { $0["count"] as? Int } == [3])
        #expect(kinds["now_handed_over"]?["other_causes"] as? Int == 0)
        // A kind not found has no causes.
        #expect((kinds["now_rejected"]?["causes"] as? [Any])?.isEmpty == true)

        let text = try CLIRunner.run(["diff", Self.example, tonight, "--urls", corpus, "--samples", "0"])
        #expect(
            text.stdout.contains(
                "now unmatched [now_unmatched]: 3\n  2 by route checkout.v2\n  1 by rule fallback.lua:7\n"),
            "\(text.stdout)")
        #expect(
            text.stdout.contains(
                "now handed over [now_handed_over]: 3\n  3 by redirect myapp://live/:room (redirects.lua:18)\n"),
            "\(text.stdout)")
    }

    /// A corpus that parts at ever new places keeps 50 causes a kind; the rest are "other".
    @Test func theCausesKeptForAKindAreCappedAndTheRestCountedAsOther() throws {
        let routes = (0..<60).map { "  - { name: r\($0), pattern: \"myapp://r/\($0)\", exported: true }\n" }.joined()
        let old = try CLIRunner.folder([
            "manifest.yaml": "name: many\nversion: 1\n", "routes.yaml": "routes:\n" + routes,
        ])
        let new = try CLIRunner.folder([
            "manifest.yaml": "name: many\nversion: 2\n",
            "routes.yaml": "routes:\n  - { name: home, pattern: \"myapp://home\", exported: true }\n",
        ])
        let corpus = try EvalCorpusTests.corpus(
            (0..<60).map { "myapp://r/\($0)" }.joined(separator: "\n") + "\nmyapp://r/0\n")
        let json = try CLIRunner.run(["diff", old, new, "--urls", corpus, "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let kinds = try #require(try Self.object(json.stdout)["kinds"] as? [String: [String: Any]])
        let unmatched = try #require(kinds["now_unmatched"])
        let causes = try #require(unmatched["causes"] as? [[String: Any]])
        #expect(unmatched["count"] as? Int == 61)
        #expect(causes.count == 50)
        #expect(causes.first?["text"] as? String == "route r0")
        #expect(causes.first?["count"] as? Int == 2)
        #expect(unmatched["other_causes"] as? Int == 10)
        let text = try CLIRunner.run(["diff", old, new, "--urls", corpus, "--samples", "0"])
        #expect(text.stdout.contains("   2 by route r0\n"), "\(text.stdout)")
        #expect(text.stdout.contains("  10 by other causes (past the 50 kept)\n"), "\(text.stdout)")
    }

    @Test func namesTheRoutesAndRulesTheCorpusNeverReached() throws {
        let corpus = try EvalCorpusTests.corpus("myapp://home\nmyapp://live/1\n")
        let result = try CLIRunner.run(["diff", Self.example, Self.example, "--urls", corpus, "--format", "json"])
        let unexercised = try #require(try Self.object(result.stdout)["unexercised"] as? [String: [String]])
        #expect(unexercised["routes"]?.contains("checkout.v2") == true)
        #expect(unexercised["routes"]?.contains("home") == false)
        #expect(unexercised["routes"]?.contains("live.room") == false)
        #expect(unexercised["rules"]?.contains("group anti_addiction (policies.lua:12)") == false)
        #expect(unexercised["rules"]?.contains("interceptor video-switch (interceptors.lua:42)") == true)
        #expect(unexercised["rules"]?.contains { $0.hasPrefix("interceptor push-audit") } == false)
    }

    @Test func aFolderAndItsArtifactDifferInNothingOverAHundredThousandURLs() throws {
        let folder = try ShippingFixtures.folder()
        _ = try ShippingFixtures.writeKey(in: folder)
        let artifact = try ShippingFixtures.builds.thirtyDays
        var generator = SplitMix64(seed: 16)
        let shapes = [
            "myapp://home", "myapp://user/%d", "myapp://user/n%d", "myapp://checkout/v2", "myapp://live/%d",
            "myapp://order/AB%06d", "myapp://moments/%d", "myapp://feed/%d?x=1", "myapp://video/edit/%d",
            "myapp://nothing/%d", "https://help.example.com/articles/%d", "myapp://action/experiment/e%d",
            "myapp://checkout?coupon=%d", "myapp://%d/%d", "not a url %d", "myapp://web?url=%d",
        ]
        var lines: [String] = []
        for _ in 0..<100_000 {
            let shape = shapes[Int(generator.next() % UInt64(shapes.count))]
            let number = Int(generator.next() % 1_000_000)
            lines.append(
                shape.hasPrefix("not")
                    ? "{\"url\": \"not a url \(number)\"}"
                    : shape.replacingOccurrences(of: "%06d", with: String(number)).replacingOccurrences(
                        of: "%d", with: String(number)))
        }
        let corpus = try EvalCorpusTests.corpus(lines.joined(separator: "\n") + "\n")
        let contexts = folder + "/contexts.jsonl"
        try """
        {}
        {"user": {"id": 7, "age": 15}, "hour": 23, "app_version": "5.3.0"}
        """.write(toFile: contexts, atomically: true, encoding: .utf8)
        let result = try CLIRunner.run([
            "diff", Self.example, artifact, "--urls", corpus, "--pubkey", folder + "/signing.pub", "--contexts",
            contexts,
            "--format", "json", "--max-changes", "0",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try Self.object(result.stdout)
        #expect(report["requests"] as? Int == 200_000)
        #expect(report["changed"] as? Int == 0)
    }

    @Test func sourcesAndContextsMultiplyTheLinesThatDoNotSayTheirs() throws {
        let folder = try ShippingFixtures.folder()
        let contexts = folder + "/contexts.jsonl"
        try "{\"user\": {\"id\": 1}}\n# a guest\n{}\n".write(toFile: contexts, atomically: true, encoding: .utf8)
        let corpus = try EvalCorpusTests.corpus(
            "myapp://moments/1\n{\"url\": \"myapp://moments/2\", \"source\": \"push\"}\n"
                + "{\"url\": \"myapp://moments/3\", \"context\": {}}\n")
        let result = try CLIRunner.run([
            "diff", Self.example, Self.example, "--urls", corpus, "--source", "internal", "--source", "push",
            "--contexts", contexts, "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // 2 sources × 2 contexts, 1 source × 2 contexts, 2 sources × its own context.
        #expect(try Self.object(result.stdout)["requests"] as? Int == 4 + 2 + 2)
    }

    @Test func aGzipCorpusIsReadAsItInflates() throws {
        let lines = (0..<20_000).map { "myapp://live/\($0)" }
        let plain = try EvalCorpusTests.corpus(lines.joined(separator: "\n") + "\n")
        try Self.gzip(plain)
        // Two members one after another, as `cat a.gz b.gz` makes, is one corpus.
        let gzipped = plain + ".gz"
        let twice = plain + ".twice.gz"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: gzipped))
        try (bytes + bytes).write(to: URL(fileURLWithPath: twice))
        let tonight = try Self.edited(Self.changes[1].edits)
        for (path, requests) in [(gzipped, 20_000), (twice, 40_000)] {
            let result = try CLIRunner.run(["diff", Self.example, tonight, "--urls", path, "--format", "json"])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try Self.object(result.stdout)
            #expect(report["requests"] as? Int == requests)
            #expect(Self.counts(report) == ["now_handed_over": requests])
        }
    }

    /// What happens to a gzip file on its way.
    enum Damage: String, CaseIterable, Sendable {
        case cutShort, damaged, followedByJunk

        func apply(_ bytes: Data) -> Data {
            switch self {
            case .cutShort: return bytes.prefix(bytes.count / 2)
            case .damaged:
                var damaged = bytes
                for index in 20..<40 { damaged[index] ^= 0x55 }
                return damaged
            case .followedByJunk: return bytes + Data("junk".utf8)
            }
        }

        var message: String {
            switch self {
            case .cutShort: "gzip: the file ends inside a compressed stream"
            case .damaged: "gzip: the compressed data is damaged"
            case .followedByJunk: "gzip: the compressed data is damaged"
            }
        }
    }

    @Test(arguments: Damage.allCases)
    func aBrokenGzipFileIsExit3(_ damage: Damage) throws {
        let plain = try EvalCorpusTests.corpus((0..<5_000).map { "myapp://user/\($0)" }.joined(separator: "\n"))
        try Self.gzip(plain)
        let path = plain + ".gz"
        try damage.apply(try Data(contentsOf: URL(fileURLWithPath: path))).write(to: URL(fileURLWithPath: path))
        let result = try CLIRunner.run(["diff", Self.example, Self.example, "--urls", path])
        #expect(result.status == 3)
        #expect(result.stderr.contains("\(path): error: \(damage.message)"), "\(result.stderr)")
    }

    @Test func checksFailWithExit1AndSayWhy() throws {
        let tonight = try Self.edited(Self.changes[2].edits)
        let corpus = try EvalCorpusTests.corpus("myapp://nothing/1\nmyapp://nothing/2\nmyapp://home\n")
        let cases: [([String], Int32, String?)] = [
            (["--max-changes", "2"], 0, nil),
            (["--max-changes", "1"], 1, "diff: 2 requests change, more than --max-changes 1"),
            (["--fail-on", "now_rejected", "rule_now_fails"], 0, nil),
            (
                ["--fail-on", "now_rejected", "now_unmatched"], 1,
                "diff: 2 requests are now unmatched (--fail-on now_unmatched)"
            ),
        ]
        for (options, status, message) in cases {
            let result = try CLIRunner.run(["diff", Self.example, tonight, "--urls", corpus] + options)
            #expect(result.status == status, "\(options)")
            if let message { #expect(result.stderr.contains(message), "\(result.stderr)") }
            #expect(result.stdout.contains("2 changed"))
        }
    }

    @Test(arguments: [
        (["--fail-on", "now_broken"], "--fail-on now_broken: not a kind of change"),
        (["--samples", "5000"], "--samples is between 0 and 1000"),
        (["--max-changes=-1"], "--max-changes is 0 or more"),
    ])
    func unusableOptionsAreRefusedBeforeAnythingLoads(options: [String], message: String) throws {
        let result = try CLIRunner.run(["diff", "/nonexistent/a", "/nonexistent/b", "--urls", "x"] + options)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func aBundleThatDoesNotLoadIsExit2() throws {
        let corpus = try EvalCorpusTests.corpus("myapp://home\n")
        let artifact = try ShippingFixtures.builds.thirtyDays
        let cases: [([String], String)] = [
            (["diff", "/nonexistent/old", Self.example], "/nonexistent/old: no such bundle folder or artifact"),
            (["diff", Self.example, artifact], "an artifact is read only when it verifies: give the key"),
            (
                ["diff", Self.example, try CLIRunner.fixture("check-broken")],
                "error:"
            ),
        ]
        for (arguments, message) in cases {
            let result = try CLIRunner.run(arguments + ["--urls", corpus])
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
        let stranger = try ShippingFixtures.builds.stranger
        let folder = try ShippingFixtures.folder()
        _ = try ShippingFixtures.writeKey(in: folder)
        let result = try CLIRunner.run([
            "diff", Self.example, stranger, "--urls", corpus, "--pubkey", folder + "/signing.pub",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("not in the keyring"), "\(result.stderr)")
    }

    /// With --strict-corpus, as before bad lines were skipped (CorpusBadLineTests); a
    /// --contexts file is an option, never skipped.
    @Test func aContextThatDoesNotFitTheSchemaIsExit3WithItsLineUnderStrictCorpus() throws {
        let corpus = try EvalCorpusTests.corpus(
            "myapp://home\n{\"url\": \"myapp://home\", \"context\": {\"user\": {\"id\": \"seven\"}}}\n")
        let result = try CLIRunner.run(["diff", Self.example, Self.example, "--urls", corpus, "--strict-corpus"])
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("\(corpus):2: error: context: "), "\(result.stderr)")
        #expect(result.stderr.contains("user.id"), "\(result.stderr)")
        let folder = try ShippingFixtures.folder()
        let contexts = folder + "/contexts.jsonl"
        try "{}\n{\"hour\": \"late\"}\n".write(toFile: contexts, atomically: true, encoding: .utf8)
        let other = try CLIRunner.run(["diff", Self.example, Self.example, "--urls", corpus, "--contexts", contexts])
        #expect(other.status == 3)
        #expect(other.stderr.hasPrefix("\(contexts):2: error: context: "), "\(other.stderr)")
    }

    @Test func theHTMLReportEscapesWhatTheCorpusSays() throws {
        let tonight = try Self.edited(Self.changes[2].edits)
        let corpus = try EvalCorpusTests.corpus("myapp://nothing/<script>alert(1)</script>\n")
        let output = try ShippingFixtures.folder() + "/report.html"
        let result = try CLIRunner.run([
            "diff", Self.example, tonight, "--urls", corpus, "--format", "html", "--output", output,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: output, encoding: .utf8)
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;script&gt;"))
        #expect(html.contains("default-src 'none'"))
    }

    // MARK: - Helpers

    /// A copy of the example bundle with `edits` made.
    static func edited(_ edits: [String: [(String, String)]]) throws -> String {
        let copy = try ShippingFixtures.exampleCopy()
        for (file, changes) in edits {
            let path = copy + "/" + file
            var text = try String(contentsOfFile: path, encoding: .utf8)
            for (old, new) in changes {
                if old.isEmpty {
                    text += new
                } else {
                    guard text.contains(old) else { throw EditMissed(file: file, text: old) }
                    text = text.replacingOccurrences(of: old, with: new)
                }
            }
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        return copy
    }

    struct EditMissed: Error {
        let file: String
        let text: String
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The kinds found and their counts.
    static func counts(_ report: [String: Any]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for (kind, entry) in report["kinds"] as? [String: [String: Any]] ?? [:] {
            if let count = entry["count"] as? Int, count > 0 { counts[kind] = count }
        }
        return counts
    }

    static func gzip(_ path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
        process.arguments = ["-k", "-f", path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
