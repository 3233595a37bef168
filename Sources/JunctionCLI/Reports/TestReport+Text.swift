import Junction

extension TestReport {
    /// The human format: one line per test; a failure shows expected vs actual, the rules
    /// that failed (`✗`, also under a test that expects them to) and the trace; then
    /// totals and, with coverage, what never ran.
    func text(verbose: Bool) -> [String] {
        guard let label else {
            return ["\(directory): the bundle does not load"] + (loadError?.diagnostics.map { "  \($0)" } ?? [])
        }
        var lines = ["\(directory) (\(label))"]
        let width = min(outcomes.map { $0.test.name.count }.max() ?? 0, 60)
        let numberWidth = String(outcomes.count).count
        for (index, outcome) in outcomes.enumerated() {
            let name = outcome.test.name.padding(
                toLength: max(width, outcome.test.name.count), withPad: " ", startingAt: 0)
            let number = String(index + 1)
            let padded = String(repeating: " ", count: numberWidth - number.count) + number
            lines.append("  \(outcome.passed ? "ok  " : "FAIL") \(padded) \(name)  \(place(of: outcome.test))")
            for failure in outcome.failures { lines.append("        \(failure)") }
            if outcome.showsFailedRules { lines += outcome.failedRules.map { "        ✗ \($0)" } }
            guard !outcome.passed || verbose else { continue }
            lines.append("        trace (\(outcome.decision.trace.bundle ?? label)):")
            lines += DecisionRendering.trace(outcome.decision.trace, indent: "          ", timing: false)
            for resumed in outcome.resumed {
                lines.append("        resumed after the gate:")
                lines += DecisionRendering.trace(resumed.trace, indent: "          ", timing: false)
            }
        }
        let count = outcomes.count == 1 ? "1 test" : "\(outcomes.count) tests"
        lines.append("  \(count): \(passed) passed, \(failed) failed (\(String(format: "%.2f", seconds)) s)")
        if let coverage {
            let ran = rules.filter(\.ran).count
            lines.append(
                "  coverage: lines \(Self.percent(coverage.percent)) (\(coverage.executedLineCount) of "
                    + "\(coverage.executableLineCount)), rules \(Self.percent(rulePercent)) (\(ran) of \(rules.count))")
            for file in coverage.files where !coverage.missedLines(in: file).isEmpty {
                lines.append(
                    "    \(file): \(Self.percent(coverage.percent(in: file))), never ran: lines "
                        + Self.ranges(coverage.missedLines(in: file)))
            }
            for rule in rules where !rule.ran { lines.append("    \(rule.name) (\(rule.location)) never ran") }
        }
        return lines
    }

    /// `tests/login.yaml:10`, relative to the bundle when inside it.
    func place(of test: RuleTestCase) -> String {
        var file = test.location.file
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        if file.hasPrefix(prefix) { file = String(file.dropFirst(prefix.count)) }
        return "\(file):\(test.location.line)"
    }

    /// `96.3%`.
    static func percent(_ value: Double) -> String {
        value == 100 ? "100%" : String(format: "%.1f%%", value)
    }

    /// `3-5, 9`.
    static func ranges(_ lines: [Int]) -> String {
        var parts: [String] = []
        var index = 0
        while index < lines.count {
            var end = index
            while end + 1 < lines.count, lines[end + 1] == lines[end] + 1 { end += 1 }
            parts.append(end == index ? "\(lines[index])" : "\(lines[index])-\(lines[end])")
            index = end + 1
        }
        return parts.joined(separator: ", ")
    }
}
