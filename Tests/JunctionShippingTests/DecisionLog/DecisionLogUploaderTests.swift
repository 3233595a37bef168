import Foundation
import JunctionCore
import JunctionShipping
import Testing

/// The uploader's answer table, against a scripted collector: what a `2xx`, a `413`, a
/// refusal, a failure worth retrying and no answer each do to a batch; the pending folder
/// across a restart, within its bounds; the kill switch. Every line recorded either reaches
/// the collector once, in order, or is counted in a drop report that does.
@Suite struct DecisionLogUploaderTests {
    static let collector = URL(string: "http://127.0.0.1:9/")!

    static func line(_ n: Int, padding: Int = 3_000) -> String {
        #"{"kind":"decision","n":\#(n),"pad":""# + String(repeating: "x", count: padding) + #""}"#
    }

    static func uploader(
        _ collector: ScriptedCollector, limits: DecisionLog.Limits = DecisionLog.Limits(),
        pending: PendingLogBatches? = nil, token: String? = nil
    ) throws -> DecisionLogUploader {
        var configuration = try DecisionLogUploaderConfiguration(collector: Self.collector, bearerToken: token)
        configuration.maximumBatchBytes = DecisionLogLine.maximumBytes
        return DecisionLogUploader(
            configuration: configuration, decisions: DecisionLog(limits: limits), transport: collector,
            pending: pending)
    }

    /// The numbers of the decision lines taken, and the drops reported, in order.
    static func numbers(_ lines: [String]) -> [Int] {
        lines.compactMap { line in
            guard case .table(let fields)? = try? CanonicalJSON.decode(Array(line.utf8)) else { return nil }
            if case .int(let n)? = fields["n"] { return Int(n) }
            return nil
        }
    }

    static func dropped(_ lines: [String]) -> Int {
        lines.reduce(0) { total, line in
            guard case .table(let fields)? = try? CanonicalJSON.decode(Array(line.utf8)),
                fields["kind"] == .string("dropped"),
                case .int(let count)? = fields["lines"]
            else { return total }
            return total + Int(count)
        }
    }

    @Test func everyLineArrivesOnceInOrderInBatchesWithinTheirBound() async throws {
        let collector = ScriptedCollector()
        let uploader = try Self.uploader(collector)
        for n in 1...25 { uploader.decisions.append(Self.line(n)) }
        uploader.status.append(#"{"kind":"status","event":"launched"}"#)
        let pass = await uploader.flush()
        #expect(pass.failure == nil)
        #expect(pass.sentLines == 26)
        #expect(Self.numbers(collector.lines(.decisions)) == Array(1...25))
        #expect(collector.lines(.status) == [#"{"kind":"status","event":"launched"}"#])
        // Status first, then decisions, each batch within 8 KiB of lines: two of these a batch.
        #expect(collector.requests.map(\.url.path).first == "/v1/logs/status")
        #expect(pass.sentBatches == 1 + 13)
        #expect(uploader.decisions.counts.lines == 0)
    }

    @Test func aBatchSaysWhatItIsAndWhoSendsIt() async throws {
        let collector = ScriptedCollector()
        let uploader = try Self.uploader(collector, token: "s3cr3t.t0ken_-~+/==")
        uploader.decisions.append(Self.line(1))
        await uploader.flush()
        let upload = try #require(collector.requests.first?.upload)
        #expect(upload.contentType == "application/x-ndjson")
        #expect(upload.contentEncoding == "gzip")
        #expect(upload.bearerToken == "s3cr3t.t0ken_-~+/==")
        #expect(collector.requests.first?.maximumBytes == 0)
    }

    @Test(arguments: [
        "", "two words", "line\r\nX-Injected: 1", "tøken", "=abc", "ab=c", String(repeating: "a", count: 4_097),
    ])
    func aTokenThatCannotBeAHeaderIsRefused(_ token: String) {
        #expect(throws: DecisionLogUploaderConfiguration.InvalidToken.self) {
            try DecisionLogUploaderConfiguration(collector: Self.collector, bearerToken: token)
        }
    }

    @Test func theBuffersDropsGoUpWithTheNextBatch() async throws {
        let collector = ScriptedCollector()
        let uploader = try Self.uploader(collector, limits: DecisionLog.Limits(maximumLines: 3))
        for n in 1...5 { uploader.decisions.append(Self.line(n, padding: 10)) }
        await uploader.flush()
        #expect(Self.numbers(collector.lines(.decisions)) == [3, 4, 5])
        #expect(Self.dropped(collector.lines(.decisions)) == 2)
    }

    /// The answer table: what each answer does to the first batch, and where the lines end.
    @Test(arguments: [
        // (answer, sent in the first pass, lines given up and reported by the next, pass fails)
        (ScriptedCollector.Answer.status(200), [1, 2, 3, 4], 0, false),
        (.status(202), [1, 2, 3, 4], 0, false),
        (.status(400), [3, 4], 2, false),
        (.status(415), [3, 4], 2, false),
        (.status(422), [3, 4], 2, false),
        (.status(500), [], 0, true),
        (.status(503, retryAfter: .seconds(7)), [], 0, true),
        (.status(429, retryAfter: .seconds(30)), [], 0, true),
        (.status(408), [], 0, true),
        (.status(401), [], 0, true),
        (.status(403), [], 0, true),
        (.status(404), [], 0, true),
        (.status(307), [], 0, true),
        (.unreachable, [], 0, true),
    ])
    func eachAnswerDoesWhatTheTableSays(
        _ answer: ScriptedCollector.Answer, sent: [Int], givenUp: Int, fails: Bool
    ) async throws {
        let collector = ScriptedCollector([answer])
        let uploader = try Self.uploader(collector)
        for n in 1...4 { uploader.decisions.append(Self.line(n)) }
        let first = await uploader.flush()
        #expect((first.failure != nil) == fails)
        #expect(Self.numbers(collector.lines(.decisions)) == sent)
        #expect(first.droppedLines == givenUp)
        if case .status(_, let retryAfter?) = answer { #expect(first.retryAfter == retryAfter) }
        if fails {
            #expect(first.keptBatches == 1)
            #expect(uploader.decisions.counts.lines == 4)
        }
        // The next pass sends what was kept, in order, and reports what was given up.
        let second = await uploader.flush()
        #expect(second.failure == nil)
        let lines = collector.lines(.decisions)
        #expect(Self.numbers(lines) == (fails ? [1, 2, 3, 4] : sent))
        #expect(Self.dropped(lines) == givenUp)
        #expect(Self.numbers(lines).count + Self.dropped(lines) == 4)
    }

    @Test func a413SendsTheBatchAgainInSmallerPiecesAndNothingIsLost() async throws {
        let collector = ScriptedCollector([.status(413), .status(413)])
        var configuration = try DecisionLogUploaderConfiguration(collector: Self.collector)
        configuration.maximumBatchBytes = 64 * 1024
        let uploader = DecisionLogUploader(configuration: configuration, transport: collector)
        for n in 1...40 { uploader.decisions.append(Self.line(n, padding: 500)) }
        let pass = await uploader.flush()
        #expect(pass.failure == nil)
        #expect(Self.numbers(collector.lines(.decisions)) == Array(1...40))
        #expect(Self.dropped(collector.lines(.decisions)) == 0)
        // 40 lines, then 20, then 10 a batch: the collector's bound holds for later batches.
        #expect(collector.requests.count == 2 + 4)
    }

    @Test func aLineTheCollectorRefusesAsTooLargeAloneIsDroppedAndCounted() async throws {
        let collector = ScriptedCollector([.status(413), .status(413), .status(413)])
        let uploader = try Self.uploader(collector)
        uploader.decisions.append(Self.line(1, padding: 100))
        uploader.decisions.append(Self.line(2, padding: 100))
        let pass = await uploader.flush()
        // Two lines → one, refused → dropped; the other, refused alone → dropped; the
        // count goes up in the same pass, a batch of its own.
        #expect(pass.droppedLines == 2)
        #expect(Self.numbers(collector.lines(.decisions)).isEmpty)
        #expect(Self.dropped(collector.lines(.decisions)) == 2)
    }

    @Test func batchesThatCouldNotBeSentWaitInTheFolderAcrossARestart() async throws {
        let folder = try StoreFixture.directory()
        defer { StoreFixture.remove(folder) }
        let pending = PendingLogBatches(directory: folder)
        let down = ScriptedCollector(otherwise: .unreachable)
        let before = try Self.uploader(down, pending: pending)
        for n in 1...6 { before.decisions.append(Self.line(n)) }
        let failed = await before.flush()
        #expect(failed.keptBatches == 1)
        // The app goes to the background: the rest is saved too.
        #expect(await before.persist() == 2)
        #expect(before.decisions.counts.lines == 0)
        #expect(try pending.list().kept.count == 3)

        // A new process: a new uploader, its buffers empty, the same folder.
        let up = ScriptedCollector()
        let after = try Self.uploader(up, pending: pending)
        after.decisions.append(Self.line(7))
        let pass = await after.flush()
        #expect(pass.failure == nil)
        #expect(Self.numbers(up.lines(.decisions)) == Array(1...7))
        #expect(try pending.list().kept.isEmpty)
    }

    @Test func theFolderIsBoundedAndWhatItRemovesIsCounted() async throws {
        let folder = try StoreFixture.directory()
        defer { StoreFixture.remove(folder) }
        let pending = PendingLogBatches(directory: folder, limits: PendingLogBatches.Limits(maximumFiles: 2))
        let collector = ScriptedCollector()
        let uploader = try Self.uploader(collector, pending: pending)
        for n in 1...8 {
            uploader.decisions.append(Self.line(n))
            if n.isMultiple(of: 2) { await uploader.persist() }
        }
        // Four batches of two lines saved; the folder keeps the newest two, each reporting
        // the two lines its save removed: the counts are as durable as the batches.
        #expect(try pending.list().kept.map(\.lines) == [4, 4])
        // A restart: the buffers, and anything counted only there, are gone.
        let restarted = try Self.uploader(collector, pending: pending)
        let pass = await restarted.flush()
        #expect(pass.failure == nil)
        let lines = collector.lines(.decisions)
        #expect(Self.numbers(lines) == [5, 6, 7, 8])
        #expect(Self.dropped(lines) == 4)
    }

    @Test func aFolderThatCannotBeWrittenKeepsTheBatchInTheBuffer() async throws {
        let folder = try StoreFixture.directory()
        defer { StoreFixture.remove(folder) }
        // Operation 0 makes the folder, 1 lists it; the batch's file (2) fails, and all after.
        let faulty = FaultyFileSystem(failAt: 2, mode: .crash)
        let pending = PendingLogBatches(directory: folder, fileSystem: faulty)
        let collector = ScriptedCollector([.unreachable])
        let uploader = try Self.uploader(collector, pending: pending)
        for n in 1...3 { uploader.decisions.append(Self.line(n)) }
        let failed = await uploader.flush()
        #expect(failed.failure != nil)
        #expect(uploader.decisions.counts.lines == 3)
        await uploader.flush()
        #expect(Self.numbers(collector.lines(.decisions)) == [1, 2, 3])
    }

    @Test func theKillSwitchSendsNothingKeepsNothingAndEmptiesTheFolder() async throws {
        let folder = try StoreFixture.directory()
        defer { StoreFixture.remove(folder) }
        let pending = PendingLogBatches(directory: folder)
        let collector = ScriptedCollector([.unreachable])
        let uploader = try Self.uploader(collector, pending: pending)
        for n in 1...3 { uploader.decisions.append(Self.line(n)) }
        await uploader.flush()
        #expect(try pending.list().kept.count == 1)
        uploader.decisions.append(Self.line(4))
        await uploader.setEnabled(false)
        uploader.decisions.append(Self.line(5))
        #expect(uploader.decisions.counts.lines == 0)
        let pass = await uploader.flush()
        #expect(pass == DecisionLogUploadPass())
        #expect(try pending.list().kept.isEmpty)
        await uploader.setEnabled(true)
        uploader.decisions.append(Self.line(6))
        await uploader.flush()
        #expect(Self.numbers(collector.lines(.decisions)) == [6])
        #expect(Self.dropped(collector.lines(.decisions)) == 0)
    }

    @Test func twoFlushesAtOnceSendEachLineOnce() async throws {
        let collector = ScriptedCollector()
        let uploader = try Self.uploader(collector)
        for n in 1...30 { uploader.decisions.append(Self.line(n)) }
        async let first = uploader.flush()
        async let second = uploader.flush()
        _ = await (first, second)
        await uploader.flush()
        #expect(Self.numbers(collector.lines(.decisions)) == Array(1...30))
    }

    /// `run()` goes on after a failure, by the backoff, and sends as soon as a buffer is
    /// half full rather than at the end of its hour-long interval; cancelling it stops it.
    /// Its waits are generous: in a full run the other suites hold the cooperative threads
    /// that resume it (one full run took 62 s), and what is checked is that the lines
    /// come at all, long before the hour.
    @Test func runRetriesAfterAFailureAndGoesEarlyWhenABufferIsHalfFull() async throws {
        let collector = ScriptedCollector([.status(503)])
        var configuration = try DecisionLogUploaderConfiguration(collector: Self.collector)
        configuration.backoff = RetrySchedule(base: .milliseconds(50), cap: .milliseconds(100))
        configuration.interval = .seconds(3_600)
        let uploader = DecisionLogUploader(
            configuration: configuration, decisions: DecisionLog(limits: DecisionLog.Limits(maximumLines: 10)),
            transport: collector)
        for n in 1...2 { uploader.decisions.append(Self.line(n, padding: 10)) }
        let running = Task { await uploader.run() }
        defer { running.cancel() }
        let clock = ContinuousClock()
        let start = clock.now
        // The 503, then the backoff's short wait, then the lines.
        while Self.numbers(collector.lines(.decisions)) != [1, 2], clock.now - start < .seconds(300) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(Self.numbers(collector.lines(.decisions)) == [1, 2])
        // An hour's interval, cut short by a buffer half full (5 of 10 lines).
        for n in 3...7 { uploader.decisions.append(Self.line(n, padding: 10)) }
        while Self.numbers(collector.lines(.decisions)).count < 7, clock.now - start < .seconds(300) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(Self.numbers(collector.lines(.decisions)) == Array(1...7))
        #expect(clock.now - start < .seconds(300))
    }

    /// The kill switch thrown while a batch of the folder is being posted: nothing crashes,
    /// nothing is kept, the folder stays empty.
    @Test func theKillSwitchDuringAPostKeepsNothing() async throws {
        let folder = try StoreFixture.directory()
        defer { StoreFixture.remove(folder) }
        let pending = PendingLogBatches(directory: folder)
        let down = try Self.uploader(ScriptedCollector(otherwise: .unreachable), pending: pending)
        for n in 1...4 { down.decisions.append(Self.line(n)) }
        await down.flush()
        #expect(try pending.list().kept.count == 1)
        for answer in [ScriptedCollector.Answer.slow(.milliseconds(300), 204), .slow(.milliseconds(300), 503)] {
            let collector = ScriptedCollector([answer])
            let uploader = try Self.uploader(collector, pending: pending)
            let posting = Task { await uploader.flush() }
            try await Task.sleep(for: .milliseconds(100))
            await uploader.setEnabled(false)
            _ = await posting.value
            #expect(try pending.list().kept.isEmpty)
            #expect(uploader.decisions.counts.lines == 0)
        }
    }

    /// `persist()` while a pass posts waits for it: the batch in flight is kept before the
    /// newer lines, so a restart sends them in order and none is lost.
    @Test func persistingDuringAPassKeepsTheBatchInFlightFirst() async throws {
        let folder = try StoreFixture.directory()
        defer { StoreFixture.remove(folder) }
        let pending = PendingLogBatches(directory: folder)
        let collector = ScriptedCollector([.slow(.milliseconds(300), 503)])
        let uploader = try Self.uploader(collector, pending: pending)
        for n in 1...2 { uploader.decisions.append(Self.line(n)) }
        let posting = Task { await uploader.flush() }
        try await Task.sleep(for: .milliseconds(100))
        for n in 3...4 { uploader.decisions.append(Self.line(n)) }
        await uploader.persist()
        _ = await posting.value
        let up = ScriptedCollector()
        await (try Self.uploader(up, pending: pending)).flush()
        #expect(Self.numbers(up.lines(.decisions)) == [1, 2, 3, 4])
    }

    /// A name in the folder that is not one the uploader writes — numbers past their bounds
    /// included — is removed, never trusted into a sum.
    @Test(arguments: [
        "decisions-99999999999999999999-1-1.ndjson.gz", "decisions-00000001-9223372036854775807-1.ndjson.gz",
        "decisions-00000001-1-9223372036854775807.ndjson.gz", "status-1-1.ndjson.gz", "other.txt",
        "decisions--1-1-1.ndjson.gz",
    ])
    func aNameTheFolderDoesNotWriteIsRemoved(_ name: String) throws {
        let folder = try StoreFixture.directory()
        defer { StoreFixture.remove(folder) }
        let pending = PendingLogBatches(directory: folder)
        _ = try pending.list()
        #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("x".utf8)))
        #expect(try pending.list().kept.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder + "/" + name))
    }
}
