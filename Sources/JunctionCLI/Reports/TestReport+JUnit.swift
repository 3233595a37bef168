import Junction

extension [TestReport] {
    /// JUnit XML, as CI servers read it: one `testsuite` per bundle.
    var junit: [String] {
        let tests = reduce(0) { $0 + $1.outcomes.count }
        let failures = reduce(0) { $0 + $1.failed }
        let errors = filter { $0.label == nil }.count
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"junction test\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\">",
        ]
        for report in self {
            let name = Self.escape(report.label ?? report.directory)
            guard report.label != nil else {
                lines.append("  <testsuite name=\(name) tests=\"0\" failures=\"0\" errors=\"1\">")
                let message = (report.loadError?.diagnostics ?? []).map(\.description).joined(separator: "\n")
                lines.append("    <error message=\"the bundle does not load\">\(Self.escapeText(message))</error>")
                lines.append("  </testsuite>")
                continue
            }
            lines.append(
                "  <testsuite name=\(name) tests=\"\(report.outcomes.count)\" failures=\"\(report.failed)\" "
                    + "errors=\"0\" time=\"\(String(format: "%.3f", report.seconds))\">")
            for outcome in report.outcomes {
                let place = report.place(of: outcome.test)
                let file = place.split(separator: ":").first.map(String.init) ?? place
                let open =
                    "    <testcase name=\(Self.escape(outcome.test.name)) classname=\(Self.escape(file)) "
                    + "file=\(Self.escape(file)) line=\"\(outcome.test.location.line)\""
                guard !outcome.passed || outcome.showsFailedRules else {
                    lines.append(open + "/>")
                    continue
                }
                lines.append(open + ">")
                let failedRules = outcome.showsFailedRules ? outcome.failedRules.map { "✗ \($0)" } : []
                if outcome.passed {
                    lines.append(
                        "      <system-out>" + Self.escapeText(failedRules.joined(separator: "\n")) + "</system-out>")
                } else {
                    let trace = DecisionRendering.trace(outcome.decision.trace, indent: "", timing: false)
                    let body = outcome.failures + failedRules + ["trace:"] + trace
                    lines.append(
                        "      <failure message=\(Self.escape(outcome.failures.joined(separator: "; ")))>"
                            + Self.escapeText(body.joined(separator: "\n")) + "</failure>")
                }
                lines.append("    </testcase>")
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines
    }

    /// A quoted XML attribute value.
    static func escape(_ text: String) -> String { "\"" + escapeText(text).replacing("\"", with: "&quot;") + "\"" }

    /// XML character data: markup characters escaped, characters XML 1.0 forbids dropped.
    static func escapeText(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
