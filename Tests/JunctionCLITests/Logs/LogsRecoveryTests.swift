import Foundation
import Testing

@testable import JunctionCLI

/// A start after a crash: the `.open` file's torn tail is cut back and appending goes on;
/// damage no crash could make stops the start.
@Suite struct LogsRecoveryTests {
    /// How a test tears the `.open` file a crash left.
    enum Tear: String, CaseIterable, Sendable {
        /// Half of a member appended, as a crash mid-write leaves it.
        case halfAMemberAppended
        /// The file cut 5 bytes short, inside the last batch's trailer.
        case lastMemberCut
        /// Zeros appended, as a file system may show an extended file after a crash.
        case zerosAppended
    }

    @Test(arguments: Tear.allCases) func aTornTailIsCutBackOnStartAndAppendingGoesOn(_ tear: Tear) throws {
        let first = try CollectorProcess()
        for batch in 1...3 {
            let lines = [#"{"url":"myapp://user/\#(batch)"}"#]
            #expect(try CollectorClient.curl(CollectorClient.gzipBatch(lines), to: first.url()).status == 204)
        }
        first.crash()
        let open = try #require(
            try FileManager.default.contentsOfDirectory(atPath: first.folder).first { $0.hasSuffix(".open") })
        let path = "\(first.folder)/\(open)"
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        let size = try handle.seekToEnd()
        switch tear {
        case .halfAMemberAppended:
            let member = CollectorClient.gzipBatch([#"{"url":"myapp://user/torn"}"#])
            try handle.write(contentsOf: member.prefix(member.count / 2))
        case .lastMemberCut:
            try handle.truncate(atOffset: size - 5)
        case .zerosAppended:
            try handle.write(contentsOf: [UInt8](repeating: 0, count: 4_096))
        }
        try handle.close()
        let second = try CollectorProcess(folder: first.folder)
        #expect(
            try CollectorClient.curl(CollectorClient.gzipBatch([#"{"url":"myapp://user/4"}"#]), to: second.url()).status
                == 204)
        let stopped = second.stop()
        #expect(stopped.errors.contains("recovered \(open): cut "), "\(stopped.errors)")
        let expected = tear == .lastMemberCut ? [1, 2, 4] : [1, 2, 3, 4]
        #expect(try CollectorClient.lines(in: first.folder) == expected.map { #"{"url":"myapp://user/\#($0)"}"# })
    }

    @Test func aStartAfterACleanStopInTheSameHourSealsASecondSegment() throws {
        let first = try CollectorProcess()
        #expect(
            try CollectorClient.curl(CollectorClient.gzipBatch([#"{"url":"myapp://a"}"#]), to: first.url()).status
                == 204)
        #expect(first.stop().status == 0)
        let second = try CollectorProcess(folder: first.folder)
        #expect(
            try CollectorClient.curl(CollectorClient.gzipBatch([#"{"url":"myapp://b"}"#]), to: second.url()).status
                == 204)
        #expect(second.stop().status == 0)
        let hour = LogFileName(kind: .decisions, secondsSince1970: Date().timeIntervalSince1970)
        let names = try FileManager.default.contentsOfDirectory(atPath: first.folder).filter { !$0.hasPrefix(".") }
        // The hour may have turned between the two; then each has its own first segment.
        if names.contains(hour.sealedName(segment: 2)) {
            #expect(Set(names) == [hour.sealedName(segment: 1), hour.sealedName(segment: 2)])
        }
        #expect(
            try CollectorClient.lines(in: first.folder).sorted() == [#"{"url":"myapp://a"}"#, #"{"url":"myapp://b"}"#])
    }

    @Test func damageFartherFromTheEndThanOneBatchStopsTheStart() throws {
        let folder = try CLIRunner.folder([:])
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let name = LogFileName(kind: .decisions, secondsSince1970: Date().timeIntervalSince1970).openName
        let good = CollectorClient.gzipBatch([#"{"url":"myapp://a"}"#])
        try Data(good + [UInt8](repeating: 0x55, count: 10_000) + good).write(
            to: URL(fileURLWithPath: "\(folder)/\(name)"))
        let start = try CLIRunner.run(
            ["logs", "serve", "--dir", folder, "--listen", "127.0.0.1:0", "--max-body-bytes", "1024"])
        #expect(start.status == 2)
        #expect(start.stderr.contains("\(name): damaged at byte \(good.count)"))
        #expect(start.stderr.contains("more than a write torn by a crash; move the file out of the folder"))
    }
}
