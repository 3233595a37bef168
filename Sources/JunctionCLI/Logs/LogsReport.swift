import Foundation
import Junction
import JunctionTooling

/// What `junction logs report` read: the counts of every line of the files
/// (``DecisionLogReport``), how many lines could not be read, and the first few of them.
struct LogsReport {
    /// How many unreadable lines are shown with their place.
    static let shownErrors = 10

    /// The files read, in order.
    let files: [String]
    /// The counts.
    private(set) var counts = DecisionLogReport()
    /// Lines that are not JSON objects, too long, in a file that ends damaged.
    private(set) var unreadable = 0
    /// The first ``shownErrors`` of them, as `FILE:LINE: what is wrong`.
    private(set) var errors: [String] = []

    /// Reads every line of `files` (plain or gzip, `-` for standard input).
    /// - Throws: `CorpusError` for a file that cannot be opened.
    static func read(_ files: [String]) throws(CorpusError) -> LogsReport {
        var report = LogsReport(files: files)
        for file in files {
            var reader = try CorpusReader(path: file)
            while true {
                do {
                    guard let (fields, _) = try reader.nextObject() else { break }
                    report.counts.add(fields)
                } catch {
                    report.unreadable += 1
                    if report.errors.count < shownErrors { report.errors.append(error.description) }
                    if error.line == 0 { break }  // the file itself: nothing more to read
                }
            }
        }
        return report
    }

    /// The most keys a table of the text report lists.
    static let shownKeys = 10

    /// The report as text, most counted first, each table cut to `top` keys.
    func text(top: Int) -> [String] {
        var lines = [
            "junction logs report: \(counts.decisions.grouped) decisions, \(counts.statuses.grouped) "
                + "status lines (\(files.count == 1 ? "1 file" : "\(files.count) files"))"
        ]
        func table(_ title: String, _ tally: DecisionLogReport.Tally) {
            guard tally.total > 0 else { return }
            lines.append("")
            lines.append("\(title):")
            let sorted = tally.sorted
            for (key, count) in sorted.prefix(top) {
                let share = String(format: "%.1f%%", 100 * Double(count) / Double(tally.total))
                lines.append("  " + count.grouped.leftPadded(to: 9) + "  " + share.leftPadded(to: 6) + "  " + key)
            }
            if sorted.count > top { lines.append("  … \(sorted.count - top) more") }
        }
        table("by outcome", counts.outcomes)
        table("by route", counts.routes)
        table("by deciding rule (· cause)", counts.rules)
        table("by bundle", counts.bundles)
        table("by app version", counts.appVersions)
        if counts.failures.total > 0 {
            let rate = String(format: "%.2f%%", 100 * Double(counts.failures.total) / Double(max(counts.decisions, 1)))
            table("rule failures (\(counts.failures.total.grouped), \(rate) of decisions)", counts.failures)
        }
        table("devices by the bundle seq they last reported", counts.devicesBySeq)
        table("update refusals by code", counts.refusals)
        if counts.droppedOnDevices > 0 {
            lines.append("")
            lines.append(
                "\(counts.droppedOnDevices.grouped) lines dropped on devices before they were sent "
                    + "(a buffer full while the collector was away, a batch refused)")
        }
        if counts.otherLines > 0 {
            lines.append("")
            lines.append("\(counts.otherLines.grouped) lines of another kind, not counted")
        }
        if unreadable > 0 {
            lines.append("")
            lines.append("\(unreadable.grouped) lines could not be read, the first:")
            lines += errors.map { "  " + $0 }
        }
        return lines
    }

    /// The report as one JSON document: each table an array of `{"key", "count"}`, most
    /// counted first, with its total.
    var json: String {
        func table(_ tally: DecisionLogReport.Tally) -> String {
            var object = JSONWriter()
            object.add("total", .raw(String(tally.total)))
            let items = tally.sorted.map { key, count in
                var item = JSONWriter()
                item.add("key", .string(key))
                item.add("count", .raw(String(count)))
                return item.rendered
            }
            object.add("counts", .raw("[" + items.joined(separator: ", ") + "]"))
            return object.rendered
        }
        var object = JSONWriter()
        object.add("files", .array(files))
        object.add("decisions", .raw(String(counts.decisions)))
        object.add("status_lines", .raw(String(counts.statuses)))
        object.add("outcomes", .raw(table(counts.outcomes)))
        object.add("routes", .raw(table(counts.routes)))
        object.add("rules", .raw(table(counts.rules)))
        object.add("bundles", .raw(table(counts.bundles)))
        object.add("app_versions", .raw(table(counts.appVersions)))
        object.add("failures", .raw(table(counts.failures)))
        object.add("devices_by_seq", .raw(table(counts.devicesBySeq)))
        object.add("refusals", .raw(table(counts.refusals)))
        object.add("dropped_on_devices", .raw(String(counts.droppedOnDevices)))
        object.add("other_lines", .raw(String(counts.otherLines)))
        object.add("unreadable_lines", .raw(String(unreadable)))
        object.add("errors", .array(errors))
        return object.rendered
    }
}

extension String {
    /// The string with spaces before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
