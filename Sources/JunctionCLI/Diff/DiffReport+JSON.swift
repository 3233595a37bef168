import Junction
import JunctionTooling

extension DiffReport {
    /// One JSON document: `lines` read, `skipped_lines` (`count`, and the `first` few as
    /// `file`, `line`, `message`), `requests` decided, `below_minimum_host_version` (the new
    /// bundle's `minimum_host_version`, the `requests` from older apps, not decided, and the
    /// bundle they `keep`), `changed`, and `kinds` — every kind, with its
    /// `count`, its `causes` (most frequent first: `count`, `kind`, `stage`, `name`,
    /// `location`, `text`) and `other_causes` (changes of causes past the cap kept), and
    /// `samples` (`url`, `source`, `line`, `context`, `old` and `new` decisions as
    /// `junction eval --json` writes them, and `parts_at`) — then what was never exercised
    /// and the failed checks. Outside checks rely on these names.
    var json: String {
        var object = JSONWriter()
        object.add("old", .string(old))
        object.add("new", .string(new))
        object.add("corpus", .string(corpus))
        object.add("lines", .raw(String(lines)))
        var skippedLines = JSONWriter()
        skippedLines.add("count", .raw(String(skipped.count)))
        let first = skipped.first.map { error in
            var line = JSONWriter()
            line.add("file", .string(error.file))
            line.add("line", .raw(String(error.line)))
            line.add("message", .string(error.message))
            return line.rendered
        }
        skippedLines.add("first", .raw("[" + first.joined(separator: ", ") + "]"))
        object.add("skipped_lines", .raw(skippedLines.rendered))
        object.add("requests", .raw(String(tally.requests)))
        var belowMinimumHost = JSONWriter()
        belowMinimumHost.add("minimum_host_version", minimumHostVersion.map { .string($0.description) } ?? .null)
        belowMinimumHost.add("requests", .raw(String(tally.belowMinimumHost)))
        belowMinimumHost.add("keep", .string(oldLabel))
        object.add("below_minimum_host_version", .raw(belowMinimumHost.rendered))
        object.add("changed", .raw(String(tally.changed)))
        var kinds = JSONWriter()
        for kind in DecisionChange.Kind.allCases {
            var entry = JSONWriter()
            entry.add("count", .raw(String(tally.counts[kind, default: 0])))
            entry.add("phrase", .string(kind.phrase))
            let causes = tally.causes[kind] ?? CauseCounts()
            entry.add("causes", .raw("[" + causes.ranked.map(Self.json).joined(separator: ", ") + "]"))
            entry.add("other_causes", .raw(String(causes.other)))
            let samples = (tally.samples[kind] ?? []).map(Self.json)
            entry.add("samples", .raw("[" + samples.joined(separator: ", ") + "]"))
            kinds.add(kind.rawValue, .raw(entry.rendered))
        }
        object.add("kinds", .raw(kinds.rendered))
        var unexercised = JSONWriter()
        unexercised.add("routes", .array(unexercisedRoutes))
        unexercised.add("rules", .array(unexercisedRules))
        object.add("unexercised", .raw(unexercised.rendered))
        object.add("failed_checks", .array(failedChecks))
        return object.rendered
    }

    private static func json(_ cause: (cause: DivergenceCause, count: Int)) -> String {
        var object = JSONWriter()
        object.add("count", .raw(String(cause.count)))
        object.add("kind", .string(cause.cause.kind.rawValue))
        object.add("stage", cause.cause.stage.map { .string($0.rawValue) } ?? .null)
        object.add("name", cause.cause.name.map { .string($0) } ?? .null)
        object.add("location", cause.cause.location.map { .string($0) } ?? .null)
        object.add("text", .string(cause.cause.description))
        return object.rendered
    }

    private static func json(_ sample: DiffSample) -> String {
        var object = JSONWriter()
        object.add("url", .string(sample.old.request.url))
        object.add("source", .string(sample.old.request.source.rawValue))
        object.add("line", .raw(String(sample.line)))
        object.add("context", .raw(RuleValue.table(sample.context.values).json))
        object.add("old", .raw(DecisionRendering.json(sample.old, timing: false)))
        object.add("new", .raw(DecisionRendering.json(sample.new, timing: false)))
        if let divergence = sample.change.divergence {
            var parts = JSONWriter()
            parts.add("step", .raw(String(divergence.index + 1)))
            parts.add("old", divergence.old.map { .string($0.description) } ?? .null)
            parts.add("new", divergence.new.map { .string($0.description) } ?? .null)
            object.add("parts_at", .raw(parts.rendered))
        } else {
            object.add("parts_at", .null)
        }
        object.add("failing_rules", .array(sample.change.failingRules))
        return object.rendered
    }
}
