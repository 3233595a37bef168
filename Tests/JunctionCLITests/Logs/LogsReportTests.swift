import Foundation
import JunctionAuthoring
import JunctionShipping
import Testing

/// `junction logs report` counts exactly what the devices decided: with sampling off, its
/// tables are the decisions' own outcomes, routes and bundles; status lines give devices
/// per seq and refusals by code; a line it cannot read is counted and shown, not fatal.
@Suite struct LogsReportTests {
    static let example = CLIRunner.repositoryRoot.appendingPathComponent("rules/example").path

    /// A log of `urls` decided under the example, every decision kept, and three devices'
    /// status lines.
    static func log() throws -> (lines: [String], decisions: [Decision]) {
        let decider = try Decider(bundle: try RuleBundle.load(directory: example))
        let log = DecisionLog()
        var decisions: [Decision] = []
        let urls = [
            "myapp://moments/7", "myapp://home", "myapp://home", "myapp://user/settings", "tp://nowhere",
            "myapp://moments/abc", "myapp://checkout",
        ]
        for url in urls {
            let decision = decider.decide(RouteRequest(url, source: .push))
            decisions.append(decision)
            #expect(log.record(decision, context: .empty, policy: DecisionLogPolicy(), appVersion: "6.1.0"))
        }
        let time = Date(timeIntervalSince1970: 1_795_000_000)
        let identity = { (seq: UInt64) in
            UpdateIdentity(epoch: 1, seq: seq, artifactSHA256: String(repeating: "b", count: 64))
        }
        let status = { (seq: UInt64) in
            UpdateStatus(active: identity(seq), origin: .update, expires: time, condition: .ok)
        }
        for (install, seq) in [("a", UInt64(6)), ("b", 7), ("a", 7), ("c", 6)] {
            log.append(
                try #require(
                    DeviceStatusLine.make(
                        .installed(identity(seq)), status: status(seq), appVersion: "6.1.0", installID: install,
                        time: time)))
        }
        log.append(
            try #require(
                DeviceStatusLine.make(
                    .skipped(.update, UpdateRefusal(.artifactHashMismatch, "the artifact is not the pointer's")),
                    status: status(6), appVersion: "6.1.0", installID: "c", time: time)))
        return (log.take(maximumBytes: 1 << 20).lines, decisions)
    }

    @Test func countsExactlyWhatWasDecided() throws {
        let (lines, decisions) = try Self.log()
        let file = try EvalCorpusTests.corpus(lines.joined(separator: "\n") + "\nnot json\n")
        let result = try CLIRunner.run(["logs", "report", file, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try DiffCommandTests.object(result.stdout)
        func counts(_ table: String) -> [String: Int] {
            let items = (report[table] as? [String: Any])?["counts"] as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: items.map { ($0["key"] as! String, $0["count"] as! Int) })
        }
        var outcomes: [String: Int] = [:]
        var routes: [String: Int] = [:]
        for decision in decisions {
            let outcome =
                switch decision.outcome {
                case .open: "open"
                case .reject: "reject"
                case .gate: "gate"
                case .respond: "respond"
                case .handOver: "hand_over"
                case .unmatched: "unmatched"
                }
            outcomes[outcome, default: 0] += 1
            routes[decision.match?.route.name ?? "(none)", default: 0] += 1
        }
        #expect(report["decisions"] as? Int == decisions.count)
        #expect(counts("outcomes") == outcomes)
        #expect(counts("routes") == routes)
        #expect(counts("bundles") == ["example@3": decisions.count])
        #expect(counts("app_versions") == ["6.1.0": decisions.count])
        // Install a moved from seq 6 to 7: each install once, at its last seq.
        #expect(counts("devices_by_seq") == ["epoch 1 seq 7": 2, "epoch 1 seq 6": 1])
        #expect(counts("refusals") == ["artifactHashMismatch": 1])
        #expect(report["unreadable_lines"] as? Int == 1)
        #expect(
            (report["errors"] as? [String])?.first?.contains(":\(lines.count + 1): error: not a JSON object") == true)
    }

    @Test func readsGzipAndPrintsTables() throws {
        let (lines, _) = try Self.log()
        let file = try EvalCorpusTests.corpus(lines.joined(separator: "\n") + "\n")
        try DiffCommandTests.gzip(file)
        let result = try CLIRunner.run(["logs", "report", file + ".gz", "--top", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("junction logs report: 7 decisions, 5 status lines (1 file)\n"))
        #expect(result.stdout.contains("\nby outcome:\n"))
        #expect(result.stdout.contains("\nupdate refusals by code:\n          1  100.0%  artifactHashMismatch\n"))
        #expect(result.stdout.contains("  … "))
        let missing = try CLIRunner.run(["logs", "report", "/nonexistent/log.ndjson"])
        #expect(missing.status == 3)
    }
}
