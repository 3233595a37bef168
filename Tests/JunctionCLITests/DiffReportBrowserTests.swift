import Foundation
import Testing

/// The HTML report of `junction diff` in a real browser: Debian's Chromium, headless, renders
/// it — a screenshot is taken — and the counts on the rendered page equal the JSON report's.
/// `scripts/setup` installs Chromium; without it this test fails, it is never skipped.
@Suite struct DiffReportBrowserTests {
    @Test func chromiumRendersTheReportWithTheJSONCounts() throws {
        let tonight = try DiffCommandTests.edited(DiffCommandTests.threeChanges)
        let corpus = try EvalCorpusTests.corpus(
            (0..<40).map { "myapp://live/\($0)" }.joined(separator: "\n") + "\n"
                + (0..<7).map { "myapp://nothing/\($0)" }.joined(separator: "\n") + "\n"
                + "{\"url\": \"myapp://checkout/v2\", \"context\": {\"user\": {\"id\": 3}}}\nmyapp://home\n")
        let folder = try ShippingFixtures.folder()
        let page = folder + "/report.html"
        let arguments = ["diff", DiffCommandTests.example, tonight, "--urls", corpus]
        let json = try CLIRunner.run(arguments + ["--format", "json"])
        let html = try CLIRunner.run(arguments + ["--format", "html", "--output", page])
        #expect(json.status == 0 && html.status == 0, "\(json.stderr)\(html.stderr)")
        let report = try DiffCommandTests.object(json.stdout)
        let expected = DiffCommandTests.counts(report)
        #expect(expected == ["now_handed_over": 40, "now_unmatched": 8])

        let screenshot = folder + "/report.png"
        let shot = try Self.chromium(["--window-size=1280,1600", "--screenshot=\(screenshot)", page], in: folder)
        #expect(shot.status == 0, "\(shot.stderr)")
        let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        #expect(Self.pngSize(png) == (1280, 1600))
        #expect(png.count > 20_000, "a page with text and a chart, not a blank one (\(png.count) bytes)")

        let dom = try Self.chromium(["--dump-dom", page], in: folder)
        #expect(dom.status == 0, "\(dom.stderr)")
        // The chart's numbers and each section's, as the browser parsed them.
        var chart: [String: Int] = [:]
        for match in dom.stdout.matches(of: #/<text class="count" data-kind="([a-z_]+)"[^>]*>(\d+)</text>/#) {
            chart[String(match.1)] = Int(match.2)
        }
        var sections: [String: Int] = [:]
        for match in dom.stdout.matches(
            of: #/<section class="kind" id="kind-[a-z_]+" data-kind="([a-z_]+)" data-count="(\d+)">/#)
        {
            sections[String(match.1)] = Int(match.2)
        }
        #expect(chart == expected)
        #expect(sections == expected)
        let requests = try #require(dom.stdout.firstMatch(of: #/<span id="requests" data-count="(\d+)">/#))
        let changed = try #require(dom.stdout.firstMatch(of: #/<span id="changed" data-count="(\d+)">/#))
        #expect(Int(requests.1) == report["requests"] as? Int)
        #expect(Int(changed.1) == report["changed"] as? Int)
        #expect(dom.stdout.contains("class=\"parts\""), "the step where the traces part is marked")

        // Each kind's table of causes, as the browser parsed it, is the JSON report's.
        var tables: [String: [String]] = [:]
        for table in dom.stdout.matches(of: #/<table class="causes" data-kind="([a-z_]+)">(.*?)</table>/#) {
            tables[String(table.1)] = table.2.matches(
                of:
                    #/<tr class="cause" data-cause-kind="[a-z]+" data-count="(\d+)"><td>[\d,]+</td><td><code>([^<]*)</code>/#
            ).map { "\($0.1) \($0.2)" }
        }
        var fromJSON: [String: [String]] = [:]
        for (kind, entry) in report["kinds"] as? [String: [String: Any]] ?? [:] {
            let causes = entry["causes"] as? [[String: Any]] ?? []
            if !causes.isEmpty {
                fromJSON[kind] = causes.map {
                    "\($0["count"] as? Int ?? -1) \(Self.escaped($0["text"] as? String ?? ""))"
                }
            }
        }
        #expect(tables == fromJSON)
        #expect(tables["now_handed_over"] == ["40 redirect myapp://live/:room (redirects.lua:18)"])
        #expect(tables["now_unmatched"] == ["7 rule fallback.lua:7", "1 route checkout.v2"])
    }

    /// Runs headless Chromium on `arguments` (a file last), killed after a minute.
    static func chromium(_ arguments: [String], in folder: String) throws -> CLIRunner.Result {
        let candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/snap/bin/chromium"]
        let browser = try #require(
            candidates.first { FileManager.default.isExecutableFile(atPath: $0) },
            "Chromium is not installed: run scripts/setup (Debian's chromium package)")
        var options = [
            "-s", "KILL", "60", browser, "--headless", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=\(folder)/chromium-profile",
        ]
        // Chromium refuses to run as root inside its own sandbox; the page is a local file
        // whose policy forbids scripts and requests.
        if getuid() == 0 { options.append("--no-sandbox") }
        var withFile = arguments
        withFile[withFile.count - 1] = URL(fileURLWithPath: arguments.last!).absoluteString
        return try CLIRunner.run(options + withFile, program: URL(fileURLWithPath: "/usr/bin/timeout"))
    }

    /// `text` as Chromium serializes it in the DOM: `&`, `<`, `>` escaped, quotes not.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Width and height from a PNG's IHDR chunk.
    static func pngSize(_ png: Data) -> (Int, Int) {
        let bytes = Array(png.prefix(24))
        guard bytes.count == 24 else { return (0, 0) }
        func number(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }
}
