import Foundation
import Junction
import Testing

@testable import JunctionShipping

/// The log's default clock reads the wall clock to the kernel's tick: a line's time, to the
/// second, is the precise clock's.
@Suite struct CoarseWallClockTests {
    @Test func agreesWithThePreciseClockToATick() {
        for _ in 0..<100 {
            let before = Date()
            let coarse = CoarseWallClock.now()
            let after = Date()
            // A tick is at most 10 ms (100 Hz kernels), and a loaded machine's timekeeping
            // may run late; the coarse reading lags, never leads.
            #expect(coarse.timeIntervalSince(before) > -0.05)
            #expect(coarse.timeIntervalSince(after) <= 0.001)
        }
    }

    /// A log made without a clock stamps its lines with the coarse one.
    @Test func stampsTheLogsLines() throws {
        let log = DecisionLog()
        let before = Date()
        let decision = DecisionLogLineTests.decider.decide(RouteRequest("myapp://home"))
        #expect(log.record(decision, context: .empty, policy: DecisionLogPolicy(sample: 1), appVersion: nil))
        let line = try #require(log.take(maximumBytes: 1 << 20).lines.first)
        let time = try #require(line.firstMatch(of: /"time":"([^"]+)"/)?.1)
        let stamped = try #require(ISO8601DateFormatter().date(from: String(time)))
        #expect(abs(stamped.timeIntervalSince(before)) < 2)
    }
}
