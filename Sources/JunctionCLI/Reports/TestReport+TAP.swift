import Junction

extension [TestReport] {
    /// TAP version 14: one test point per rule test (and one failing point for a bundle
    /// that does not load), with a YAML block for failures and for the rules that failed
    /// under a test that expects them to.
    var tap: [String] {
        var lines = ["TAP version 14"]
        var number = 0
        var body: [String] = []
        for report in self {
            guard report.label != nil else {
                number += 1
                body.append("not ok \(number) - \(report.directory) loads")
                body.append("  ---")
                body.append("  message: the bundle does not load")
                body.append("  diagnostics:")
                body += (report.loadError?.diagnostics ?? []).map { "    - \(JSONWriter.quote($0.description))" }
                body.append("  ...")
                continue
            }
            for outcome in report.outcomes {
                number += 1
                body.append("\(outcome.passed ? "ok" : "not ok") \(number) - \(outcome.test.name)")
                guard !outcome.passed || outcome.showsFailedRules else { continue }
                body.append("  ---")
                body.append("  at: \(JSONWriter.quote(report.place(of: outcome.test)))")
                if !outcome.passed {
                    body.append("  failures:")
                    body += outcome.failures.map { "    - \(JSONWriter.quote($0))" }
                }
                if outcome.showsFailedRules {
                    body.append("  rule_failures:")
                    body += outcome.failedRules.map { "    - \(JSONWriter.quote($0.description))" }
                }
                guard !outcome.passed else {
                    body.append("  ...")
                    continue
                }
                body.append("  trace:")
                body += DecisionRendering.trace(outcome.decision.trace, indent: "", timing: false)
                    .map { "    - \(JSONWriter.quote($0))" }
                body.append("  ...")
            }
            if let coverage = report.coverage {
                body.append(
                    "# \(report.label ?? report.directory): coverage lines \(TestReport.percent(coverage.percent)), "
                        + "rules \(TestReport.percent(report.rulePercent))")
            }
        }
        lines.append("1..\(number)")
        return lines + body
    }
}
