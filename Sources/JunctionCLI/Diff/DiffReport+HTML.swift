import Junction
import JunctionTooling

extension DiffReport {
    /// One self-contained page — no script, no request leaves it (its Content-Security-Policy
    /// forbids both): the totals, the requests from apps too old for the new bundle, the
    /// corpus lines skipped, a bar chart of changes by kind, then each kind's table of
    /// causes (where the decisions part, most frequent first) and its samples with the two
    /// traces side by side, the step where they part marked. Every text from
    /// the corpus or the bundles is escaped.
    var html: String {
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>junction diff: \(Self.escape(newLabel))</title>
            <style>\(Self.style)</style></head><body>
            <h1>What changes if <code>\(Self.escape(new))</code> replaces <code>\(Self.escape(old))</code></h1>
            <p class="totals"><span id="requests" data-count="\(tally.requests)">\(grouped(tally.requests))</span> requests decided \
            (\(grouped(lines)) lines of <code>\(Self.escape(corpus))</code>), \
            <span id="changed" data-count="\(tally.changed)">\(grouped(tally.changed))</span> changed (\(share(tally.changed))).</p>

            """
        if let belowMinimumHostSentence {
            page +=
                "<p class=\"below-minimum\" id=\"below-minimum\" data-count=\"\(tally.belowMinimumHost)\">"
                + "\(Self.escape(belowMinimumHostSentence)).</p>\n"
        }
        page += skippedLines()
        if !failedChecks.isEmpty {
            page += "<ul class=\"failed\">" + failedChecks.map { "<li>\(Self.escape($0))</li>" }.joined() + "</ul>\n"
        }
        page += chart()
        for kind in tally.kindsFound { page += section(kind) }
        if !unexercisedRoutes.isEmpty || !unexercisedRules.isEmpty {
            page += "<h2>Never exercised by this corpus in <code>\(Self.escape(newLabel))</code></h2>\n"
            page +=
                "<p>The diff says nothing about these: no request of the corpus reached them.</p><ul class=\"unexercised\">"
            if !unexercisedRoutes.isEmpty {
                page +=
                    "<li>routes: " + unexercisedRoutes.map { "<code>\(Self.escape($0))</code>" }.joined(separator: ", ")
                    + "</li>"
            }
            page += unexercisedRules.map { "<li><code>\(Self.escape($0))</code></li>" }.joined()
            page += "</ul>\n"
        }
        return page + "</body></html>\n"
    }

    /// How many corpus lines were skipped, and the first of them with where and why.
    private func skippedLines() -> String {
        guard skipped.count > 0 else { return "" }
        var html =
            "<section class=\"skipped\" id=\"skipped\" data-count=\"\(skipped.count)\"><p>"
            + "\(grouped(skipped.count)) corpus \(skipped.count == 1 ? "line" : "lines") skipped: "
            + "\(skipped.count == 1 ? "it" : "they") cannot be read (<code>--strict-corpus</code> stops at the first)."
            + "</p><ul>"
        for error in skipped.first {
            html +=
                "<li data-line=\"\(error.line)\"><code>\(Self.escape(error.file)):\(error.line)</code>: "
                + "\(Self.escape(error.message))</li>"
        }
        if skipped.count > skipped.first.count {
            html += "<li>… and \(grouped(skipped.count - skipped.first.count)) more</li>"
        }
        return html + "</ul></section>\n"
    }

    /// Changes by kind as horizontal bars, most frequent first.
    private func chart() -> String {
        let kinds = tally.kindsFound
        guard let most = kinds.first.map({ tally.counts[$0]! }) else {
            return "<p class=\"none\" id=\"no-changes\">No request changes.</p>\n"
        }
        let rowHeight = 26
        let height = kinds.count * rowHeight + 4
        var svg =
            "<svg class=\"chart\" role=\"img\" aria-label=\"changes by kind\" viewBox=\"0 0 760 \(height)\" "
            + "width=\"760\" height=\"\(height)\">"
        for (row, kind) in kinds.enumerated() {
            let count = tally.counts[kind]!
            let y = row * rowHeight + 2
            let width = max(2, Int((Double(count) / Double(most) * 420).rounded()))
            svg += "<text x=\"210\" y=\"\(y + 17)\" text-anchor=\"end\">\(Self.escape(kind.phrase))</text>"
            svg += "<rect class=\"\(Self.severity(kind))\" x=\"220\" y=\"\(y + 3)\" width=\"\(width)\" height=\"18\"/>"
            svg +=
                "<text class=\"count\" data-kind=\"\(kind.rawValue)\" x=\"\(226 + width)\" y=\"\(y + 17)\">\(count)</text>"
        }
        return svg + "</svg>\n"
    }

    private func section(_ kind: DecisionChange.Kind) -> String {
        let count = tally.counts[kind]!
        var html =
            "<section class=\"kind\" id=\"kind-\(kind.rawValue)\" data-kind=\"\(kind.rawValue)\" data-count=\"\(count)\">"
        html +=
            "<h2>\(Self.escape(kind.phrase)) <code>\(kind.rawValue)</code>: \(grouped(count)) (\(share(count)))</h2>"
        html += causeTable(kind)
        for sample in tally.samples[kind] ?? [] { html += Self.sample(sample) }
        return html + "</section>\n"
    }

    /// The kind's causes, most frequent first: where the decisions part, and how often.
    private func causeTable(_ kind: DecisionChange.Kind) -> String {
        guard let causes = tally.causes[kind] else { return "" }
        var html =
            "<table class=\"causes\" data-kind=\"\(kind.rawValue)\"><tr><th>requests</th>"
            + "<th>where the decisions part</th></tr>"
        for (cause, count) in causes.ranked {
            html +=
                "<tr class=\"cause\" data-cause-kind=\"\(cause.kind.rawValue)\" data-count=\"\(count)\">"
                + "<td>\(grouped(count))</td><td><code>\(Self.escape(cause.description))</code></td></tr>"
        }
        if causes.other > 0 {
            html +=
                "<tr class=\"cause\" data-cause-kind=\"other\" data-count=\"\(causes.other)\">"
                + "<td>\(grouped(causes.other))</td><td>other causes (past the \(causes.limit) kept)</td></tr>"
        }
        return html + "</table>"
    }

    private static func sample(_ sample: DiffSample) -> String {
        let request = sample.old.request
        var html = "<details open class=\"sample\"><summary><code>\(escape(request.url))</code> "
        html += "<span class=\"where\">line \(sample.line), source \(escape(request.source.rawValue))"
        if !sample.context.values.isEmpty {
            html += ", context <code>\(escape(RuleValue.table(sample.context.values).compactDescription))</code>"
        }
        html += "</span></summary><table class=\"traces\"><tr><th>old: \(escape(sample.old.summary))</th>"
        html += "<th>new: \(escape(sample.new.summary))</th></tr>"
        let parting = sample.change.divergence?.index
        let oldSteps = sample.old.trace.steps
        let newSteps = sample.new.trace.steps
        for index in 0..<max(oldSteps.count, newSteps.count) {
            let mark = index == parting ? " class=\"parts\"" : ""
            html += "<tr\(mark)>"
            for steps in [oldSteps, newSteps] {
                html +=
                    "<td>" + (index < steps.count ? "\(index + 1). " + escape(steps[index].description) : "") + "</td>"
            }
            html += "</tr>"
        }
        return html + "</table></details>"
    }

    /// The bar's colour: what blocks users is red, what sends them elsewhere amber.
    private static func severity(_ kind: DecisionChange.Kind) -> String {
        switch kind {
        case .ruleNowFails, .nowUnmatched, .nowRejected: "bad"
        case .otherRoute, .nowHandedOver, .handedOverElsewhere, .nowGated, .rejectionChanged, .gateChanged,
            .outcomeChanged, .noLongerHandedOver:
            "shift"
        case .nowMatched, .noLongerRejected, .noLongerGated, .redirectsChanged, .paramsChanged, .responseChanged:
            "mild"
        }
    }

    /// Text as HTML: `&`, `<`, `>`, `"` and `'` escaped.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    private static let style = """
        body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d1d1f;max-width:1400px}\
        h1{font-size:20px}h2{font-size:16px;margin-top:28px}code{font:12px ui-monospace,monospace}\
        .totals{font-size:15px}.failed{color:#b00020;font-weight:600}.skipped{color:#8a4b00}\
        .chart text{font-size:13px;fill:#1d1d1f}.chart .count{font-weight:600}\
        .bad{fill:#d93025}.shift{fill:#f29900}.mild{fill:#1a73e8}\
        .sample{margin:10px 0;border:1px solid #ddd;border-radius:6px;padding:6px 10px}\
        .where{color:#666;font-size:12px}\
        .traces{width:100%;border-collapse:collapse;table-layout:fixed;margin-top:6px}\
        .traces th,.traces td{text-align:left;vertical-align:top;padding:3px 6px;border-top:1px solid #eee;\
        font:12px ui-monospace,monospace;word-break:break-all}\
        .traces th{font-weight:600;background:#f6f6f6}.traces tr.parts td{background:#fff3cd}\
        .causes{border-collapse:collapse;margin:6px 0 10px}.causes th,.causes td{text-align:left;padding:2px 8px;\
        border-top:1px solid #eee}.causes td:first-child{text-align:right;font-variant-numeric:tabular-nums}
        """
}
