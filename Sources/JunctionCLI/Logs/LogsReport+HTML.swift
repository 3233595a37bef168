import JunctionTooling

extension LogsReport {
    /// The most keys a chart of the HTML report draws; the rest are summed in one row.
    static let chartedKeys = 20

    /// One self-contained page — no script, no request leaves it (its Content-Security-Policy
    /// forbids both): the totals, then each table as a bar chart, most counted first, and
    /// the lines that could not be read. Every text from the logs is escaped: a key is
    /// what a device wrote, so a hostile one is shown, never run.
    var html: String {
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>junction logs report</title>
            <style>\(Self.style)</style></head><body>
            <h1>What the devices decided</h1>
            <p class="totals"><span id="decisions" data-count="\(counts.decisions)">\(counts.decisions.grouped)</span> \
            decisions and <span id="status-lines" data-count="\(counts.statuses)">\(counts.statuses.grouped)</span> \
            status lines in \(files.count == 1 ? "1 file" : "\(files.count) files").</p>

            """
        if counts.droppedOnDevices > 0 {
            page +=
                "<p class=\"dropped\" id=\"dropped\" data-count=\"\(counts.droppedOnDevices)\">"
                + "\(counts.droppedOnDevices.grouped) lines were dropped on devices before they were sent "
                + "(a buffer full while the collector was away, a batch refused): the counts below miss them.</p>\n"
        }
        page += chart("outcomes", "Decisions by outcome", counts.outcomes)
        page += chart("routes", "By route", counts.routes)
        page += chart("rules", "By deciding rule (· cause)", counts.rules)
        page += chart("bundles", "By bundle", counts.bundles)
        page += chart("app_versions", "By app version", counts.appVersions)
        if counts.failures.total > 0 {
            let rate = String(format: "%.2f%%", 100 * Double(counts.failures.total) / Double(max(counts.decisions, 1)))
            page += chart("failures", "Rule failures (\(rate) of decisions)", counts.failures)
        }
        page += chart("devices_by_seq", "Devices by the bundle seq they last reported", counts.devicesBySeq)
        page += chart("refusals", "Update refusals by code", counts.refusals)
        if unreadable > 0 {
            page +=
                "<section id=\"unreadable\" data-count=\"\(unreadable)\"><h2>\(unreadable.grouped) lines could not be read</h2><ul>"
            page += errors.map { "<li><code>\(DiffReport.escape($0))</code></li>" }.joined()
            page += "</ul></section>\n"
        }
        return page + "</body></html>\n"
    }

    /// A table as horizontal bars, most counted first: at most ``chartedKeys`` bars, the
    /// rest summed in one.
    private func chart(_ id: String, _ title: String, _ tally: DecisionLogReport.Tally) -> String {
        guard tally.total > 0 else { return "" }
        var rows = Array(tally.sorted.prefix(Self.chartedKeys))
        let rest = tally.sorted.dropFirst(Self.chartedKeys)
        let most = rows.first?.count ?? 1
        let rowHeight = 24
        let height = (rows.count + (rest.isEmpty ? 0 : 1)) * rowHeight + 4
        var svg =
            "<section class=\"table\" id=\"\(id)\" data-total=\"\(tally.total)\"><h2>\(DiffReport.escape(title))</h2>"
            + "<svg class=\"chart\" role=\"img\" aria-label=\"\(DiffReport.escape(title))\" viewBox=\"0 0 900 \(height)\" "
            + "width=\"900\" height=\"\(height)\">"
        if !rest.isEmpty { rows.append((key: "\(rest.count) more", count: rest.reduce(0) { $0 + $1.count })) }
        for (row, entry) in rows.enumerated() {
            let y = row * rowHeight + 2
            let width = max(2, Int((Double(entry.count) / Double(max(most, entry.count)) * 420).rounded()))
            let label = entry.key.count > 60 ? String(entry.key.prefix(59)) + "…" : entry.key
            let isRest = !rest.isEmpty && row == rows.count - 1
            svg += "<text x=\"350\" y=\"\(y + 16)\" text-anchor=\"end\"><title>\(DiffReport.escape(entry.key))</title>"
            svg += "\(DiffReport.escape(label))</text>"
            svg +=
                "<rect class=\"\(isRest ? "rest" : "bar")\" x=\"360\" y=\"\(y + 3)\" width=\"\(width)\" height=\"17\"/>"
            let share = String(format: "%.1f%%", 100 * Double(entry.count) / Double(tally.total))
            svg +=
                "<text class=\"count\" data-key=\"\(isRest ? "" : DiffReport.escape(entry.key))\" "
                + "data-count=\"\(entry.count)\" x=\"\(366 + width)\" y=\"\(y + 16)\">\(entry.count.grouped) · \(share)</text>"
        }
        return svg + "</svg></section>\n"
    }

    private static let style = """
        body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d1d1f;max-width:1000px}\
        h1{font-size:20px}h2{font-size:16px;margin:26px 0 6px}code{font:12px ui-monospace,monospace}\
        .totals{font-size:15px}.dropped{color:#8a4b00;font-weight:600}\
        .chart text{font-size:12px;fill:#1d1d1f}.chart .count{font-weight:600}\
        .bar{fill:#1a73e8}.rest{fill:#9aa0a6}
        """
}
