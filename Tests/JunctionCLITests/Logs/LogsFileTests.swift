import JunctionTooling
import Foundation
import JunctionShipping
import JunctionCore
import Testing

@testable import JunctionCLI

/// The hour files' names, their rotation as hours pass, and the line checks of a batch.
@Suite struct LogsFileTests {
    @Test(arguments: [
        (0.0, "1970-01-01T00"), (1_795_885_199.0, "2026-11-28T16"), (1_795_885_200.0, "2026-11-28T17"),
        (1_795_888_799.9, "2026-11-28T17"),
    ])
    func namesSayTheUTCHour(_ seconds: Double, _ hour: String) throws {
        let name = LogFileName(kind: .decisions, secondsSince1970: seconds)
        #expect(name.hourText == hour)
        #expect(name.openName == "decisions-\(hour).ndjson.gz.open")
        #expect(name.sealedName(segment: 1) == "decisions-\(hour).ndjson.gz")
        #expect(name.sealedName(segment: 3) == "decisions-\(hour).3.ndjson.gz")
        #expect(LogFileName(openName: name.openName) == name)
    }

    @Test(arguments: [
        "decisions-2026-11-28T17.ndjson.gz", "other-2026-11-28T17.ndjson.gz.open",
        "decisions-2026-11-28.ndjson.gz.open",
        "decisions-2026-13-28T17.ndjson.gz.open", ".collector.lock",
    ])
    func otherNamesAreNotOpenFiles(_ name: String) {
        #expect(LogFileName(openName: name) == nil)
    }

    @Test func aBatchAfterTheHourSealsTheHourAndStartsTheNext() throws {
        let folder = try CLIRunner.folder([:])
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let now = Locked(1_795_888_790.0)  // 2026-11-28T17:59:50Z
        let file = HourlyLogFile(kind: .decisions, folder: folder, clock: { now.withLock { $0 } })
        try file.append(GzipCompression.member(Array("{\"a\":1}\n".utf8)))
        #expect(try Self.names(folder) == ["decisions-2026-11-28T17.ndjson.gz.open"])
        now.withLock { $0 += 5 }
        file.sealIfPast()
        #expect(try Self.names(folder) == ["decisions-2026-11-28T17.ndjson.gz.open"])
        now.withLock { $0 += 10 }
        file.sealIfPast()
        #expect(try Self.names(folder) == ["decisions-2026-11-28T17.ndjson.gz"])
        try file.append(GzipCompression.member(Array("{\"a\":2}\n".utf8)))
        try file.append(GzipCompression.member(Array("{\"a\":3}\n".utf8)))
        now.withLock { $0 += 3_600 }
        try file.append(GzipCompression.member(Array("{\"a\":4}\n".utf8)))
        file.sealNow()
        #expect(
            try Self.names(folder) == [
                "decisions-2026-11-28T17.ndjson.gz", "decisions-2026-11-28T18.ndjson.gz",
                "decisions-2026-11-28T19.ndjson.gz",
            ])
        #expect(try CollectorClient.lines(in: folder) == [#"{"a":1}"#, #"{"a":2}"#, #"{"a":3}"#, #"{"a":4}"#])
    }

    static func names(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test(
        arguments: [
            ("{\"a\":1}\n{\"b\":[1,2]}\n", 2, nil),
            ("\n \t\r\n{\"a\":1}\r\n", 1, nil),
            ("{\"a\":1}", 1, nil),
            ("", 0, nil),
            (
                "{\"a\":1}\n\"text\"\n", 1,
                BatchLines.Refusal.notAnObject(line: 2, reason: "a JSON value that is not an object")
            ),
            ("\(String(repeating: " ", count: 70))\n", 0, BatchLines.Refusal.lineTooLong(line: 1, maximumBytes: 64)),
            (String(repeating: "{}\n", count: 400), 0, BatchLines.Refusal.tooLarge(maximumBytes: 1_024)),
        ] as [(String, Int, BatchLines.Refusal?)])
    func batchLinesAreJSONObjectsWithinTheirCaps(_ text: String, _ objects: Int, _ refusal: BatchLines.Refusal?) {
        var lines = BatchLines(maximumLineBytes: 64, maximumBytes: 1_024)
        // Fed in 7-byte pieces, as inflated chunks end anywhere.
        let bytes = Array(text.utf8)
        do {
            for start in stride(from: 0, to: bytes.count, by: 7) {
                try lines.take(bytes[start..<min(start + 7, bytes.count)])
            }
            try lines.finish()
            #expect(refusal == nil && lines.objects == objects, "\(text)")
        } catch {
            #expect(error == refusal, "\(text)")
        }
    }

    @Test func aLineWithADuplicateKeyIsRefusedAsTheCorpusReaderRefusesIt() {
        var lines = BatchLines(maximumLineBytes: 64, maximumBytes: 1_024)
        #expect {
            try lines.take(Array("{\"a\":1}\n{\"a\":1,\"a\":2}\n".utf8)[...])
        } throws: { error in
            guard case .notAnObject(line: 2, let reason) = error as? BatchLines.Refusal else { return false }
            return reason.contains("appears twice in one object")
        }
    }
}
