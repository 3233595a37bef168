import Foundation
import Testing

@testable import JunctionCLI

/// Many uploaders at once, and crashes among them: every batch answered 204 is in the files,
/// whole, and every batch in the files is whole.
@Suite(.serialized) struct LogsLoadTests {
    /// `uploaders` × `batches` gzip batch files of `lines` lines each, named `u1-b1.gz`…, in a new
    /// folder; every line is unique (`u1-b1-l1`).
    static func batchFiles(uploaders: Int, batches: Int, lines: Int) throws -> String {
        let folder = try CLIRunner.folder([:])
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for uploader in 1...uploaders {
            for batch in 1...batches {
                let text = (1...lines).map {
                    #"{"url":"myapp://user/\#(uploader)","params":{"id":"u\#(uploader)-b\#(batch)-l\#($0)"}}"#
                }
                try Data(CollectorClient.gzipBatch(text)).write(
                    to: URL(fileURLWithPath: "\(folder)/u\(uploader)-b\(batch).gz"))
            }
        }
        return folder
    }

    /// One uploader: a shell posting its batches in turn with curl, printing `STATUS uU-bB`
    /// for each. (Started one process each: a shell's `wait` hangs under the test runner,
    /// which starts children with SIGCHLD blocked.)
    static func uploader(_ uploader: Int, batchFolder: String, batches: Int, url: String) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c",
            """
            for b in $(seq 1 \(batches)); do
              /usr/bin/curl -s -o /dev/null -w "%{http_code} u\(uploader)-b$b\\n" \
                --data-binary @\(batchFolder)/u\(uploader)-b$b.gz \
                -H 'Content-Type: application/x-ndjson' -H 'Content-Encoding: gzip' \(url)
            done
            """,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        return (process, output)
    }

    /// Runs `uploaders` uploaders at once; `whileRunning` runs once they are started.
    /// - Returns: Each batch's status, by name (`u1-b1`).
    static func upload(
        uploaders: Int, batchFolder: String, batches: Int, url: String, whileRunning: () -> Void = {}
    ) throws -> [String: String] {
        let running = try (1...uploaders).map { try uploader($0, batchFolder: batchFolder, batches: batches, url: url) }
        whileRunning()
        var statuses: [String: String] = [:]
        for (process, output) in running {
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            for line in printed.split(separator: "\n") { statuses[String(line.dropFirst(4))] = String(line.prefix(3)) }
        }
        return statuses
    }

    /// The `id` of every line in `folder`'s sealed files.
    static func ids(in folder: String) throws -> [String] {
        try CollectorClient.lines(in: folder).map { line in
            String(try #require(line.firstMatch(of: /"id":"([^"]+)"/)).1)
        }
    }

    @Test func aHundredConcurrentUploadersLoseNothing() throws {
        let (uploaders, batches, lines) = (100, 10, 100)
        let batchFolder = try Self.batchFiles(uploaders: uploaders, batches: batches, lines: lines)
        let collector = try CollectorProcess(["--max-connections", "128"])
        let start = ContinuousClock.now
        let statuses = try Self.upload(
            uploaders: uploaders, batchFolder: batchFolder, batches: batches, url: collector.url())
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        #expect(statuses.count == uploaders * batches)
        #expect(statuses.values.allSatisfy { $0 == "204" }, "\(Set(statuses.values))")
        let peak = collector.peakResidentBytes
        #expect(collector.stop().output.contains("stopped: \(uploaders * batches) batches"))
        let ids = try Self.ids(in: collector.folder)
        #expect(ids.count == uploaders * batches * lines)
        #expect(Set(ids).count == uploaders * batches * lines)
        print(
            "logs serve: \(uploaders) uploaders × \(batches) batches × \(lines) lines in \(seconds) s: "
                + "\(Int(Double(ids.count) / seconds)) lines/s, \(Int(Double(uploaders * batches) / seconds)) batches/s, "
                + "peak resident \(peak >> 20) MiB")
        #expect(peak < 200 << 20)
    }

    @Test func aCrashMidUploadLosesNoAcceptedBatchAndTearsNone() throws {
        let (uploaders, batches, lines) = (20, 20, 50)
        let batchFolder = try Self.batchFiles(uploaders: uploaders, batches: batches, lines: lines)
        let first = try CollectorProcess(["--max-connections", "128"])
        let answers = try Self.upload(
            uploaders: uploaders, batchFolder: batchFolder, batches: batches, url: first.url(),
            whileRunning: {
                // Crash once the first batches are on disk: a fixed delay could come after
                // every upload on a fast run (400 batches in under 1.5 s).
                let deadline = Date().addingTimeInterval(10)
                while Date() < deadline {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: first.folder)) ?? []
                    let written = names.filter { $0.hasSuffix(".open") }.contains { name in
                        let size = (try? FileManager.default.attributesOfItem(atPath: first.folder + "/" + name))?[
                            .size]
                        return ((size as? NSNumber)?.intValue ?? 0) > 4_096
                    }
                    if written { break }
                    Thread.sleep(forTimeInterval: 0.01)
                }
                first.crash()
            })
        #expect(answers.count == uploaders * batches)
        let acceptedFirst = Set(answers.filter { $0.value == "204" }.map(\.key))
        #expect(!acceptedFirst.isEmpty, "the crash came before any batch was accepted")
        #expect(acceptedFirst.count < uploaders * batches, "the crash came after every batch was accepted")
        // The rest, sent again to a collector started on the same folder.
        let second = try CollectorProcess(folder: first.folder)
        var acceptedSecond: Set<String> = []
        for name in answers.keys where !acceptedFirst.contains(name) {
            let body = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(batchFolder)/\(name).gz")))
            if try CollectorClient.curl(body, to: second.url()).status == 204 { acceptedSecond.insert(name) }
        }
        #expect(acceptedFirst.count + acceptedSecond.count == uploaders * batches)
        #expect(second.stop().status == 0)
        var linesPerBatch: [String: Int] = [:]
        for id in try Self.ids(in: first.folder) {
            linesPerBatch[String(id.prefix { $0 != "l" }.dropLast()), default: 0] += 1
        }
        for name in acceptedFirst.union(acceptedSecond) {
            #expect(linesPerBatch[name] ?? 0 >= lines, "\(name) accepted, not all in the files")
        }
        // A batch written but not answered before the crash may be there twice (sent again), never in part.
        #expect(linesPerBatch.values.allSatisfy { $0 == lines || $0 == 2 * lines }, "\(linesPerBatch)")
    }
}
