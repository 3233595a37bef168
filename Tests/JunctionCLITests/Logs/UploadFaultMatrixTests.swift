import Foundation
import JunctionCore
import JunctionShipping
import JunctionTestSupport
import Testing

@testable import JunctionCLI

/// The decision-log uploader through the updater's HTTP transport (libcurl here) against
/// the real `junction logs serve`, and against a collector that fails on purpose where the
/// real one cannot: down, `413`, `401`, `500` with `Retry-After`, a connection reset
/// half-way through a body, silence, a long outage that overflows the buffer, and a restart
/// with batches waiting in the pending folder.
///
/// Every case checks the one invariant: each line recorded reaches the collector's files
/// exactly once, in order, or is counted in a drop report that does — and the drops are
/// only what the documented bounds allow.
@Suite(.serialized) struct UploadFaultMatrixTests {
    static func line(_ n: Int, padding: Int = 0) -> String {
        var pad = ""
        var generator = SplitMix64(seed: UInt64(n))
        for _ in 0..<padding { pad += String(UInt8.random(in: 0...15, using: &generator), radix: 16) }
        return #"{"kind":"decision","n":\#(n),"pad":"\#(pad)","url":"myapp://user/\#(n)"}"#
    }

    static func uploader(
        _ collector: URL, token: String? = nil, timeout: Duration = .seconds(10), limits: DecisionLog.Limits = .init(),
        pending: PendingLogBatches? = nil
    ) throws -> DecisionLogUploader {
        var configuration = try DecisionLogUploaderConfiguration(collector: collector, bearerToken: token)
        configuration.exchangeTimeout = timeout
        configuration.maximumBatchBytes = 16 * 1024
        return DecisionLogUploader(
            configuration: configuration, decisions: DecisionLog(limits: limits), pending: pending)
    }

    /// What the collected lines say: the decision numbers in order, and the drops reported.
    static func account(_ lines: [String]) -> (numbers: [Int], dropped: Int) {
        var numbers: [Int] = []
        var dropped = 0
        for line in lines {
            guard case .table(let fields)? = try? CanonicalJSON.decode(Array(line.utf8)) else { continue }
            if case .int(let n)? = fields["n"] { numbers.append(Int(n)) }
            if fields["kind"] == .string("dropped"), case .int(let count)? = fields["lines"] { dropped += Int(count) }
        }
        return (numbers, dropped)
    }

    static func lines(ofBodies bodies: [[UInt8]]) -> [String] {
        bodies.flatMap { body -> [String] in
            var text: [UInt8] = []
            var given = false
            _ = GzipMembers().inflate(
                from: { () -> [UInt8] in
                    defer { given = true }
                    return given ? [] : body
                }, into: { text += $0 })
            return String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init)
        }
    }

    static func folder() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("junction-pending-\(UUID())").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path + "/logs"
    }

    @Test func everyLineReachesTheCollectorsFilesOnceAndInOrder() async throws {
        let collector = try CollectorProcess()
        let uploader = try Self.uploader(URL(string: "http://127.0.0.1:\(collector.port)")!)
        for n in 1...1_000 { uploader.decisions.append(Self.line(n, padding: 40)) }
        uploader.status.append(#"{"event":"launched","kind":"status"}"#)
        let pass = await uploader.flush()
        #expect(pass.failure == nil)
        #expect(pass.sentLines == 1_001)
        #expect(collector.stop().status == 0)
        let lines = try CollectorClient.lines(in: collector.folder)
        #expect(Self.account(lines).numbers == Array(1...1_000))
        #expect(Self.account(lines).dropped == 0)
        #expect(lines.contains(#"{"event":"launched","kind":"status"}"#))
    }

    @Test func aCollectorThatIsDownGetsTheBatchesFromTheFolderAfterARestart() async throws {
        // A collector started and stopped: its port now refuses connections.
        let gone = try CollectorProcess()
        let port = gone.port
        _ = gone.stop()
        let pending = PendingLogBatches(directory: Self.folder())
        let before = try Self.uploader(URL(string: "http://127.0.0.1:\(port)")!, pending: pending)
        for n in 1...50 { before.decisions.append(Self.line(n)) }
        let failed = await before.flush()
        #expect(failed.failure?.code == .cannotConnect)
        await before.persist()

        let collector = try CollectorProcess()
        let after = try Self.uploader(URL(string: "http://127.0.0.1:\(collector.port)")!, pending: pending)
        for n in 51...60 { after.decisions.append(Self.line(n)) }
        let pass = await after.flush()
        #expect(pass.failure == nil)
        _ = collector.stop()
        let account = Self.account(try CollectorClient.lines(in: collector.folder))
        #expect(account.numbers == Array(1...60))
        #expect(account.dropped == 0)
    }

    @Test func aBodyOverTheCollectorsCapIsSentAgainSmallerAndALineOverItIsCounted() async throws {
        let collector = try CollectorProcess(["--max-body-bytes", "4096"])
        let uploader = try Self.uploader(URL(string: "http://127.0.0.1:\(collector.port)")!)
        // Incompressible padding: 30 lines of about 1.3 KB gzip to well over 4 KiB a batch.
        for n in 1...30 { uploader.decisions.append(Self.line(n, padding: 1_500)) }
        uploader.decisions.append(Self.line(31, padding: 7_000))
        for n in 32...35 { uploader.decisions.append(Self.line(n, padding: 1_500)) }
        let pass = await uploader.flush()
        #expect(pass.failure == nil)
        #expect(pass.droppedLines == 1)
        _ = collector.stop()
        let account = Self.account(try CollectorClient.lines(in: collector.folder))
        #expect(account.numbers == Array(1...30) + Array(32...35))
        #expect(account.dropped == 1)
    }

    @Test func aMissingTokenIsRetriedNotDroppedAndTheRightOneGetsIn() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("junction-token-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "s3cret-token\n".write(toFile: folder + "/token", atomically: true, encoding: .utf8)
        let collector = try CollectorProcess(["--token-file", folder + "/token"])
        let url = URL(string: "http://127.0.0.1:\(collector.port)")!
        let without = try Self.uploader(url)
        for n in 1...5 { without.decisions.append(Self.line(n)) }
        let refused = await without.flush()
        #expect(refused.failure?.status == 401)
        #expect(without.decisions.counts.lines == 5)
        let wrong = try Self.uploader(url, token: "not-the-token")
        wrong.decisions.append(Self.line(6))
        #expect(await wrong.flush().failure?.status == 401)
        let with = try Self.uploader(url, token: "s3cret-token")
        for n in 1...5 { with.decisions.append(Self.line(n)) }
        #expect(await with.flush().failure == nil)
        _ = collector.stop()
        #expect(Self.account(try CollectorClient.lines(in: collector.folder)).numbers == Array(1...5))
    }

    /// What the real collector cannot do on purpose: each step fails the first pass; the
    /// second sends everything; the collector keeps only what it answered 2xx.
    @Test(arguments: [
        (FlakyCollector.Step.status(500, retryAfter: 3), UpdateTransportError.Code.status, Duration?.some(.seconds(3))),
        (.status(503, retryAfter: 120), .status, .seconds(120)),
        (.status(429), .status, nil),
        (.reset, .cannotConnect, nil),
        (.silent, .timedOut, nil),
    ])
    func aFailedExchangeKeepsTheBatchAndTheNextPassSendsItOnce(
        _ step: FlakyCollector.Step, code: UpdateTransportError.Code, retryAfter: Duration?
    ) async throws {
        let collector = try FlakyCollector([step])
        // A short deadline only where it is the point; elsewhere one a loaded run cannot trip.
        var silent = false
        if case .silent = step { silent = true }
        let uploader = try Self.uploader(collector.url, timeout: silent ? .seconds(2) : .seconds(30))
        for n in 1...40 { uploader.decisions.append(Self.line(n, padding: 200)) }
        let started = ContinuousClock.now
        let failed = await uploader.flush()
        // The silent collector holds a connection 60 s: an exchange cut well before that
        // was cut by its own deadline (the margin is for a full run's loaded threads).
        #expect(ContinuousClock.now - started < .seconds(45))
        #expect(failed.failure?.code == code, "\(String(describing: failed.failure))")
        #expect(failed.retryAfter == retryAfter)
        #expect(failed.keptBatches == 1)
        let pass = await uploader.flush()
        #expect(pass.failure == nil)
        let account = Self.account(Self.lines(ofBodies: collector.acceptedBodies()))
        #expect(account.numbers == Array(1...40))
        #expect(account.dropped == 0)
        #expect(collector.answers().first == step.description)
    }

    @Test func aLongOutageDropsOnlyWhatTheBufferCannotHoldAndCountsIt() async throws {
        let collector = try FlakyCollector(Array(repeating: .status(503), count: 3))
        let uploader = try Self.uploader(collector.url, limits: DecisionLog.Limits(maximumLines: 50))
        for round in 0..<3 {
            for n in (round * 40 + 1)...(round * 40 + 40) { uploader.decisions.append(Self.line(n)) }
            #expect(await uploader.flush().failure?.status == 503)
        }
        #expect(await uploader.flush().failure == nil)
        let account = Self.account(Self.lines(ofBodies: collector.acceptedBodies()))
        // 120 recorded; the buffer holds 50: the newest 50 arrive, 70 are reported dropped.
        #expect(account.numbers == Array(71...120))
        #expect(account.dropped == 70)
    }
}
