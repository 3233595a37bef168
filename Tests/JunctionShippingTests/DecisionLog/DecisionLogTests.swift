import Foundation
import JunctionCore
import JunctionShipping
import Testing

/// The decision log's buffer is bounded in lines and in bytes; the oldest lines go first,
/// and every line dropped is counted and reported with the next batch. A batch that could
/// not be sent goes back in front as far as the bounds allow.
@Suite struct DecisionLogTests {
    static func line(_ n: Int, padding: Int = 0) -> String {
        #"{"kind":"decision","n":\#(n),"pad":""# + String(repeating: "x", count: padding) + #""}"#
    }

    @Test func theOldestLinesGoFirstAndAreCounted() {
        let log = DecisionLog(limits: DecisionLog.Limits(maximumLines: 3))
        for n in 1...5 { log.append(Self.line(n)) }
        #expect(log.counts.lines == 3)
        let batch = log.take(maximumBytes: 1 << 20)
        #expect(batch.lines == [Self.line(3), Self.line(4), Self.line(5)])
        #expect(batch.dropped == 2)
        // The count goes out once.
        #expect(log.take(maximumBytes: 1 << 20) == DecisionLogBatch(lines: [], dropped: 0))
    }

    @Test func theBytesAreBoundedToo() {
        let limit = 16 * 1024
        let log = DecisionLog(limits: DecisionLog.Limits(maximumLines: 1_000, maximumBytes: limit))
        for n in 1...100 { log.append(Self.line(n, padding: 1_000)) }
        #expect(log.counts.bytes <= limit)
        let batch = log.take(maximumBytes: 1 << 20)
        #expect(batch.lines.count + batch.dropped == 100)
        #expect(batch.lines.last == Self.line(100, padding: 1_000))
        #expect(batch.lines.map(\.utf8.count).reduce(0, +) <= limit)
    }

    @Test func aLineLongerThanALineMayBeIsDroppedAndCounted() {
        let log = DecisionLog()
        log.append(Self.line(1, padding: DecisionLogLine.maximumBytes))
        #expect(log.counts == (0, 0, 1))
    }

    @Test func aBatchTakesUpToItsBytesAndAtLeastOneLine() {
        let log = DecisionLog()
        for n in 1...10 { log.append(Self.line(n, padding: 100)) }
        let size = Self.line(1, padding: 100).utf8.count
        #expect(log.take(maximumBytes: 3 * size).lines.count == 3)
        #expect(log.take(maximumBytes: 1).lines.count == 1)
        #expect(log.counts.lines == 6)
    }

    @Test func aBatchPutBackGoesInFrontAsFarAsTheBoundsAllow() {
        let log = DecisionLog(limits: DecisionLog.Limits(maximumLines: 4))
        for n in 1...3 { log.append(Self.line(n)) }
        let batch = log.take(maximumBytes: 1 << 20)
        for n in 4...5 { log.append(Self.line(n)) }
        log.putBack(batch)
        let again = log.take(maximumBytes: 1 << 20)
        // Room for two of the three: the newest of them stay, the oldest is dropped.
        #expect(again.lines == [Self.line(2), Self.line(3), Self.line(4), Self.line(5)])
        #expect(again.dropped == 1)
    }

    @Test func recordingDecidesWithThePolicyAndTheDraw() {
        let decision = DecisionLogLineTests.decider.decide(RouteRequest("myapp://home"))
        let log = DecisionLog(draw: { 0.5 }, now: { DecisionLogLineTests.time })
        #expect(!log.record(decision, context: .empty, policy: DecisionLogPolicy(sample: 0.1), appVersion: nil))
        #expect(log.record(decision, context: .empty, policy: DecisionLogPolicy(sample: 0.9), appVersion: nil))
        #expect(!log.record(decision, context: .empty, policy: .off, appVersion: nil))
        #expect(log.counts.lines == 1)
    }

    /// A decision is kept as it was decided and written, masked, when it is taken: the
    /// line is the one `DecisionLogLine.make` writes, stamped with the time it was decided.
    @Test func aRecordedDecisionIsWrittenWhenTakenAsItWasDecided() throws {
        let decision = DecisionLogLineTests.decider.decide(RouteRequest("myapp://home?token=abc&x=1"))
        let policy = DecisionLogPolicy(sample: 1)
        let log = DecisionLog(draw: { 0.5 }, now: { DecisionLogLineTests.time })
        #expect(log.record(decision, context: .empty, policy: policy, appVersion: "6.1.0"))
        let expected = try #require(
            DecisionLogLine.make(
                decision, context: .empty, policy: policy, appVersion: "6.1.0", time: DecisionLogLineTests.time))
        let batch = log.take(maximumBytes: 1 << 20)
        #expect(batch.lines == [expected])
        #expect(!expected.contains("abc"))
    }

    /// A refusal's reason may be as long as a verdict; the log keeps no more of a long one
    /// than its line will say, so the bound in bytes holds for what it keeps.
    @Test func aLongRefusalReasonIsCutWhenRecorded() throws {
        let reason = String(repeating: "ü", count: 50_000)
        let decision = Decision(
            outcome: .reject(Rejection(.rule, reason: reason, code: 403)), request: RouteRequest("myapp://home"),
            uri: nil)
        guard case .reject(let kept) = LoggedDecision(decision).outcome else {
            Issue.record("not a refusal")
            return
        }
        #expect(kept.reason == String(repeating: "ü", count: 200))
        let log = DecisionLog(now: { DecisionLogLineTests.time })
        #expect(log.record(decision, context: .empty, policy: DecisionLogPolicy(sample: 1), appVersion: nil))
        let line = try #require(log.take(maximumBytes: 1 << 20).lines.first)
        #expect(line.contains(#""reason":""# + String(repeating: "ü", count: 200) + #"""#))
    }

    /// A decision counts for its URL and ``DecisionLog/recordedOverhead`` until written; a
    /// URL longer than a line may be is counted dropped at once.
    @Test func recordedDecisionsAreBoundedBeforeTheyAreWritten() {
        let log = DecisionLog(limits: DecisionLog.Limits(maximumLines: 1_000, maximumBytes: 16 * 1024), draw: { 0 })
        for n in 0..<100 {
            log.record(
                DecisionLogLineTests.decider.decide(RouteRequest("myapp://home?n=\(n)")), context: .empty,
                policy: DecisionLogPolicy(), appVersion: nil)
        }
        #expect(log.counts.bytes <= 16 * 1024)
        #expect(log.counts.lines == 16 * 1024 / ("myapp://home?n=10".utf8.count + DecisionLog.recordedOverhead))
        let long = "myapp://home?q=" + String(repeating: "a", count: DecisionLogLine.maximumBytes)
        #expect(
            !log.record(
                DecisionLogLineTests.decider.decide(RouteRequest(long)), context: .empty, policy: DecisionLogPolicy(),
                appVersion: nil))
        let batch = log.take(maximumBytes: 1 << 20)
        #expect(batch.lines.count + batch.dropped == 101)
    }

    /// Many threads record at once: every line is either in a batch or counted dropped.
    @Test func concurrentRecordingLosesNothingUncounted() async {
        let log = DecisionLog(limits: DecisionLog.Limits(maximumLines: 500))
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask { for n in 0..<1_000 { log.append(Self.line(task * 1_000 + n)) } }
            }
        }
        let batch = log.take(maximumBytes: 1 << 30)
        #expect(batch.lines.count == 500)
        #expect(batch.lines.count + batch.dropped == 8_000)
    }
}
