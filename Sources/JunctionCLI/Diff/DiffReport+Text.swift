import Junction
import JunctionTooling

extension DiffReport {
    /// The report for people: the totals, the requests from apps too old for the new
    /// bundle, the corpus lines skipped, a line per kind, each kind's causes (where the
    /// decisions part, most frequent first) and samples with both decisions and where their
    /// traces part, and what the corpus never reached.
    var text: String {
        var out: [String] = [
            "junction diff: \(old) → \(new)",
            "\(grouped(tally.requests)) requests decided (\(grouped(lines)) lines of \(corpus)), "
                + "\(grouped(tally.changed)) changed (\(share(tally.changed)))",
        ]
        if let belowMinimumHostSentence { out.append(belowMinimumHostSentence) }
        out.append(contentsOf: skippedLines())
        let kinds = tally.kindsFound
        if !kinds.isEmpty {
            out.append("")
            let width = kinds.map { grouped(tally.counts[$0]!).count }.max() ?? 1
            for kind in kinds {
                let count = grouped(tally.counts[kind]!)
                out.append(
                    "  " + String(repeating: " ", count: width - count.count) + count + "  \(kind.phrase) [\(kind)]")
            }
        }
        for kind in kinds {
            out.append("")
            out.append("\(kind.phrase) [\(kind)]: \(grouped(tally.counts[kind]!))")
            out.append(contentsOf: causeLines(kind))
            for sample in tally.samples[kind] ?? [] { out.append(contentsOf: Self.text(sample)) }
        }
        if !unexercisedRoutes.isEmpty || !unexercisedRules.isEmpty {
            out.append("")
            out.append("never exercised by this corpus in \(newLabel) — the diff says nothing about them:")
            if !unexercisedRoutes.isEmpty { out.append("  routes: " + unexercisedRoutes.joined(separator: ", ")) }
            for rule in unexercisedRules { out.append("  " + rule) }
        }
        return out.joined(separator: "\n")
    }

    /// How many corpus lines were skipped, and the first of them: `FILE:LINE: what is wrong`.
    private func skippedLines() -> [String] {
        guard skipped.count > 0 else { return [] }
        let noun = skipped.count == 1 ? "line" : "lines"
        var lines = [
            "\(grouped(skipped.count)) corpus \(noun) skipped: \(skipped.count == 1 ? "it" : "they") cannot be read "
                + "(--strict-corpus stops at the first)"
        ]
        lines += skipped.first.map { "  " + SkippedLines.line($0) }
        if skipped.count > skipped.first.count {
            lines.append("  … and \(grouped(skipped.count - skipped.first.count)) more")
        }
        return lines
    }

    /// `  412 by rule "checkout-rollout" (rollout.lua:3)`, a line per cause of `kind`, most
    /// frequent first, and the changes of causes not kept.
    private func causeLines(_ kind: DecisionChange.Kind) -> [String] {
        guard let causes = tally.causes[kind] else { return [] }
        var rows = causes.ranked.map { (grouped($0.count), "by \($0.cause)") }
        if causes.other > 0 {
            rows.append((grouped(causes.other), "by other causes (past the \(causes.limit) kept)"))
        }
        let width = rows.map(\.0.count).max() ?? 1
        return rows.map { "  " + String(repeating: " ", count: width - $0.0.count) + $0.0 + " " + $0.1 }
    }

    private static func text(_ sample: DiffSample) -> [String] {
        let request = sample.old.request
        var where_ = "line \(sample.line), source \(request.source.rawValue)"
        if !sample.context.values.isEmpty { where_ += ", context \(RuleValue.table(sample.context.values))" }
        var lines = [
            "  \(request.url)  (\(where_))",
            "    old: \(sample.old.summary)",
            "    new: \(sample.new.summary)",
        ]
        if !sample.change.failingRules.isEmpty {
            lines.append("    now failing: " + sample.change.failingRules.joined(separator: ", "))
        }
        if let divergence = sample.change.divergence {
            lines.append("    parts at step \(divergence.index + 1):")
            lines.append("      old: " + (divergence.old?.description ?? "(the trace ended)"))
            lines.append("      new: " + (divergence.new?.description ?? "(the trace ended)"))
        }
        return lines
    }

    /// `1,234,567` (``Swift/Int/grouped``).
    func grouped(_ number: Int) -> String { number.grouped }
}
