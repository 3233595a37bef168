import Junction
import JunctionTooling
import Testing

/// The log report's tables are bounded whatever the files hold: past 1,000 distinct keys a
/// table counts the rest under "(other)", and every line is still counted.
@Suite struct DecisionLogReportTests {
    @Test func aTableKeepsAThousandKeysAndCountsTheRest() {
        var report = DecisionLogReport()
        for n in 0..<1_500 {
            report.add(["kind": "decision", "decision": ["outcome": "open", "route": .string("route-\(n)")]])
        }
        report.add(["kind": "decision", "decision": ["outcome": "open", "route": "route-7"]])
        #expect(report.decisions == 1_501)
        #expect(report.routes.total == 1_501)
        #expect(report.routes.counts.count == DecisionLogReport.maximumKeys + 1)
        #expect(report.routes.counts[DecisionLogReport.otherKey] == 500)
        #expect(report.routes.counts["route-7"] == 2)
        #expect(report.outcomes.sorted.first?.count == 1_501)
    }

    @Test func eachInstallCountsOnceAtItsLastSeqAndOtherKindsAreSetAside() {
        var report = DecisionLogReport()
        for (install, seq) in [("a", 1), ("a", 2), ("b", 1)] {
            report.add(["kind": "status", "install": .string(install), "epoch": 0, "seq": .int(Int64(seq))])
        }
        report.add(["kind": "metrics"])
        report.add(["url": "myapp://home"])
        #expect(report.devicesBySeq.counts == ["epoch 0 seq 2": 1, "epoch 0 seq 1": 1])
        #expect(report.statuses == 3)
        #expect(report.otherLines == 2)
    }

    /// Drop reports add up; a count that is not a positive number is another line, and a
    /// hostile count saturates the total rather than overflowing it.
    @Test func theDevicesDropReportsAddUpAndCannotOverflow() {
        var report = DecisionLogReport()
        report.add(["kind": "dropped", "lines": 3])
        report.add(["kind": "dropped", "lines": 4])
        #expect(report.droppedOnDevices == 7)
        report.add(["kind": "dropped", "lines": -5])
        report.add(["kind": "dropped", "lines": "many"])
        #expect(report.otherLines == 2)
        report.add(["kind": "dropped", "lines": .int(.max)])
        report.add(["kind": "dropped", "lines": .int(.max)])
        #expect(report.droppedOnDevices == .max)
    }
}
