import Foundation
import Testing

/// The HTML page of `junction logs report` in a real browser: Debian's Chromium, headless,
/// renders it (a screenshot), and the bars it parsed carry the JSON report's counts. A key a
/// device wrote — here a route named like a script — is shown as text, never run.
/// `scripts/setup` installs Chromium; without it this test fails, it is never skipped.
@Suite struct LogsReportBrowserTests {
    @Test func chromiumRendersTheChartsWithTheJSONCountsAndRunsNothingADeviceWrote() throws {
        let (lines, _) = try LogsReportTests.log()
        let hostile =
            #"{"decision":{"outcome":"reject","route":"<script>document.title='x'</script>"},"kind":"decision","url":"myapp://x"}"#
        let dropped = #"{"kind":"dropped","lines":5,"time":"2026-11-28T17:00:00Z"}"#
        let file = try EvalCorpusTests.corpus((lines + [hostile, dropped]).joined(separator: "\n") + "\n")
        let folder = try ShippingFixtures.folder()
        let page = folder + "/logs.html"
        let json = try CLIRunner.run(["logs", "report", file, "--format", "json"])
        let html = try CLIRunner.run(["logs", "report", file, "--format", "html", "--output", page])
        #expect(json.status == 0 && html.status == 0, "\(json.stderr)\(html.stderr)")
        let report = try DiffCommandTests.object(json.stdout)

        let screenshot = folder + "/logs.png"
        let shot = try DiffReportBrowserTests.chromium(
            ["--window-size=1000,1400", "--screenshot=\(screenshot)", page], in: folder)
        #expect(shot.status == 0, "\(shot.stderr)")
        let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
        #expect(DiffReportBrowserTests.pngSize(png) == (1000, 1400))
        #expect(png.count > 20_000, "a page with text and charts, not a blank one (\(png.count) bytes)")

        let dom = try DiffReportBrowserTests.chromium(["--dump-dom", page], in: folder)
        #expect(dom.status == 0, "\(dom.stderr)")
        for table in ["outcomes", "routes", "rules", "bundles", "app_versions", "devices_by_seq", "refusals"] {
            let section = try #require(
                dom.stdout.firstMatch(of: try Regex(#"<section class="table" id="\#(table)"[^>]*>(.*?)</section>"#)),
                "no chart of \(table)")
            var bars: [String: Int] = [:]
            for bar in (section.output[1].substring ?? "").matches(
                of: #/<text class="count" data-key="([^"]*)" data-count="(\d+)"/#)
            {
                bars[String(bar.1).replacingOccurrences(of: "&amp;", with: "&")] = Int(bar.2)
            }
            let items = (report[table] as? [String: Any])?["counts"] as? [[String: Any]] ?? []
            var expected: [String: Int] = [:]
            for item in items {
                expected[DiffReportBrowserTests.escaped(item["key"] as! String)] = item["count"] as? Int
            }
            #expect(bars == expected, "\(table)")
        }
        let decisions = try #require(dom.stdout.firstMatch(of: #/<span id="decisions" data-count="(\d+)">/#))
        #expect(Int(decisions.1) == report["decisions"] as? Int)
        #expect(dom.stdout.contains(#"<p class="dropped" id="dropped" data-count="5">"#))
        // The route a device named `<script>…` is text: no script element, the title unchanged.
        #expect(!dom.stdout.contains("<script"))
        #expect(dom.stdout.contains("<title>junction logs report</title>"))
        #expect(dom.stdout.contains("&lt;script&gt;document.title='x'&lt;/script&gt;"))
    }
}
