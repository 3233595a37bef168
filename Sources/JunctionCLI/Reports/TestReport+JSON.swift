import Junction
import JunctionLua

extension [TestReport] {
    /// One JSON document: every bundle, every test with its decision and trace, totals.
    var json: String {
        var root = JSONWriter()
        root.add("bundles", .raw("[" + map(\.json).joined(separator: ", ") + "]"))
        root.add("passed", .raw(String(reduce(0) { $0 + $1.passed })))
        root.add("failed", .raw(String(reduce(0) { $0 + $1.failed })))
        root.add("unloadable", .raw(String(filter { $0.label == nil }.count)))
        // The release the rules ran on: a report from 5.4.4 and one from 5.4.7 say which is which.
        root.add("lua", .string(LuaRelease.name))
        return root.rendered
    }
}

extension TestReport {
    fileprivate var json: String {
        var object = JSONWriter()
        object.add("directory", .string(directory))
        object.add("bundle", label.map { .string($0) } ?? .null)
        object.add("errors", .array(loadError?.diagnostics.map(\.description) ?? []))
        object.add("passed", .raw(String(passed)))
        object.add("failed", .raw(String(failed)))
        let tests = outcomes.map { outcome -> String in
            var test = JSONWriter()
            test.add("name", .string(outcome.test.name))
            test.add("at", .string(place(of: outcome.test)))
            test.add("passed", .raw(outcome.passed ? "true" : "false"))
            test.add("failures", .array(outcome.failures))
            let failedRules = outcome.failedRules.map { rule -> String in
                var entry = JSONWriter()
                entry.add("stage", .string(rule.stage.rawValue))
                entry.add("name", rule.name.map { .string($0) } ?? .null)
                entry.add("location", rule.location.map { .string($0) } ?? .null)
                entry.add("error", .string(rule.error))
                entry.add("consequence", .string(rule.consequence))
                return entry.rendered
            }
            test.add("rule_failures", .raw("[" + failedRules.joined(separator: ", ") + "]"))
            test.add("decision", .raw(DecisionRendering.json(outcome.decision, timing: false)))
            return test.rendered
        }
        object.add("tests", .raw("[" + tests.joined(separator: ", ") + "]"))
        if let coverage {
            var report = JSONWriter()
            report.add("lines_percent", .raw(String(coverage.percent)))
            report.add("lines_executed", .raw(String(coverage.executedLineCount)))
            report.add("lines_executable", .raw(String(coverage.executableLineCount)))
            let files = coverage.files.map { file -> String in
                var entry = JSONWriter()
                entry.add("file", .string(file))
                entry.add("percent", .raw(String(coverage.percent(in: file))))
                entry.add(
                    "missed_lines",
                    .raw("[" + coverage.missedLines(in: file).map(String.init).joined(separator: ", ") + "]"))
                return entry.rendered
            }
            report.add("files", .raw("[" + files.joined(separator: ", ") + "]"))
            report.add("rules_percent", .raw(String(rulePercent)))
            report.add("rules_not_run", .array(rules.filter { !$0.ran }.map { "\($0.name) (\($0.location))" }))
            object.add("coverage", .raw(report.rendered))
        } else {
            object.add("coverage", .null)
        }
        return object.rendered
    }
}
