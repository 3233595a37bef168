import Foundation
import JunctionAuthoring
import JunctionShipping
import Testing

/// A device's decision log is tomorrow's diff corpus: `junction diff --urls` reads its
/// lines as they are — the decision's own fields aside, the status lines skipped — and
/// decides the same requests under both bundles.
@Suite struct DecisionLogCorpusTests {
    @Test func diffReadsADecisionLogAsItIs() throws {
        let bundle = try RuleBundle.load(
            directory: CLIRunner.repositoryRoot.appendingPathComponent("rules/example").path)
        let decider = try Decider(bundle: bundle)
        let log = DecisionLog()
        let policy = DecisionLogPolicy(context: ["app_version", "user.id"])
        let requests: [(String, RequestSource, [String: RuleValue])] = [
            ("myapp://moments/7", .push, [:]), ("myapp://checkout?coupon=SPRING", .internal, ["user": ["id": 2]]),
            ("myapp://live/3", .internal, ["user": ["id": 1, "age": 30], "app_version": "6.1.0"]),
            ("tp://nowhere", .external, [:]),
        ]
        for (url, source, context) in requests {
            let snapshot = ContextSnapshot(context)
            log.record(
                decider.decide(RouteRequest(url, source: source), context: snapshot), context: snapshot, policy: policy,
                appVersion: "6.1.0")
        }
        log.append(#"{"kind":"status","bundle":"example@3","status":"ok"}"#)
        let lines = log.take(maximumBytes: 1 << 20).lines
        #expect(lines.count == 5)
        let corpus = try EvalCorpusTests.corpus(lines.joined(separator: "\n") + "\n")
        let example = CLIRunner.repositoryRoot.appendingPathComponent("rules/example").path
        let diff = try CLIRunner.run(["diff", example, example, "--urls", corpus, "--format", "json"])
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        let report = try DiffCommandTests.object(diff.stdout)
        #expect(report["requests"] as? Int == 4)
        #expect(report["changed"] as? Int == 0)
    }
}
