import Foundation
import Testing

@testable import JunctionCLI

/// `junction logs serve` taking batches from curl, writing them where the corpus reader
/// and `junction diff` read them, and stopping cleanly.
@Suite struct LogsServeTests {
    @Test func acceptsGzipAndPlainBatchesFromCurlAndWritesThemToHourFilesPerKind() throws {
        let collector = try CollectorProcess()
        let gzip = try CollectorClient.curl(
            CollectorClient.gzipBatch([#"{"url":"myapp://user/1"}"#, #"{"url":"myapp://user/2","source":"push"}"#]),
            to: collector.url())
        // A plain body whose last line has no line end: the next batch still starts a line.
        let plain = try CollectorClient.curl(
            Array("{\"url\":\"myapp://user/3\"}\r\n\n{\"url\":\"myapp://user/4\"}".utf8), to: collector.url(),
            gzip: false)
        let after = try CollectorClient.curl(
            CollectorClient.gzipBatch([#"{"url":"myapp://user/5"}"#]), to: collector.url())
        let status = try CollectorClient.curl(
            CollectorClient.gzipBatch([#"{"bundle":"example@7","status":"ok"}"#]), to: collector.url(.status))
        #expect([gzip, plain, after, status].map(\.status) == [204, 204, 204, 204])
        let stopped = collector.stop()
        #expect(stopped.status == 0)
        #expect(stopped.output.contains("stopped: 4 batches, 6 lines written; answers 204: 4"))
        #expect(
            try CollectorClient.lines(in: collector.folder).filter { $0.contains("url") }.map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            } == [
                #"{"url":"myapp://user/1"}"#, #"{"url":"myapp://user/2","source":"push"}"#,
                #"{"url":"myapp://user/3"}"#,
                #"{"url":"myapp://user/4"}"#, #"{"url":"myapp://user/5"}"#,
            ])
        let names = try FileManager.default.contentsOfDirectory(atPath: collector.folder).filter { !$0.hasPrefix(".") }
        let hour = LogFileName(kind: .decisions, secondsSince1970: Date().timeIntervalSince1970).hourText
        #expect(Set(names) == ["decisions-\(hour).ndjson.gz", "status-\(hour).ndjson.gz"])
    }

    @Test func junctionDiffReadsACollectedFileAsItIs() throws {
        let collector = try CollectorProcess()
        let lines = [
            #"{"url":"myapp://user/42","source":"push"}"#, #"{"url":"myapp://moments/7"}"#,
            #"{"url":"myapp://nowhere/1","source":"internal"}"#,
        ]
        #expect(try CollectorClient.curl(CollectorClient.gzipBatch(lines), to: collector.url()).status == 204)
        #expect(try CollectorClient.curl(CollectorClient.gzipBatch(lines), to: collector.url()).status == 204)
        #expect(collector.stop().status == 0)
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: collector.folder).first { $0.hasSuffix(".ndjson.gz") })
        let example = CLIRunner.repositoryRoot.appendingPathComponent("rules/example").path
        let diff = try CLIRunner.run(
            ["diff", example, example, "--urls", "\(collector.folder)/\(file)", "--no-progress"])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("6 requests decided (6 lines of \(collector.folder)/\(file)), 0 changed"))
    }

    @Test func aSecondCollectorOnTheSameFolderDoesNotStart() throws {
        let first = try CollectorProcess()
        #expect(throws: CollectorStartFailure.self) { try CollectorProcess(folder: first.folder) }
        #expect(first.stop().status == 0)
    }
}
