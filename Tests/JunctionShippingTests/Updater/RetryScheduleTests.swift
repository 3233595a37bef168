import Junction
import JunctionShipping
import JunctionTestSupport
import Testing

@Suite struct RetryScheduleTests {
    @Test(arguments: [
        (1, Duration.seconds(2)), (2, .seconds(4)), (3, .seconds(8)), (8, .seconds(256)), (9, .seconds(300)),
        (40, .seconds(300)), (Int.max, .seconds(300)), (0, .seconds(2)),
    ])
    func ceilingDoublesFromTheBaseUpToTheCap(failures: Int, ceiling: Duration) {
        #expect(RetrySchedule(base: .seconds(2), cap: .seconds(300)).ceiling(afterFailures: failures) == ceiling)
    }

    @Test func delaysAreFullJitterBetweenZeroAndTheCeiling() {
        let schedule = RetrySchedule(base: .seconds(1), cap: .seconds(60))
        var generator = SplitMix64(seed: 42)
        for failures in 1...10 {
            let ceiling = schedule.ceiling(afterFailures: failures)
            let draws = (0..<2_000).map { _ in schedule.delay(afterFailures: failures, using: &generator) }
            #expect(draws.allSatisfy { $0 >= .zero && $0 <= ceiling })
            // Full jitter: the draws cover the whole range, not a band near the ceiling.
            #expect(draws.contains { $0 < ceiling * 0.1 })
            #expect(draws.contains { $0 > ceiling * 0.9 })
        }
    }

    @Test func theSystemGeneratorsDelaysStayWithinTheCeilingToo() {
        let schedule = RetrySchedule(base: .milliseconds(500), cap: .seconds(8))
        for failures in 1...8 {
            let ceiling = schedule.ceiling(afterFailures: failures)
            #expect((0..<200).allSatisfy { _ in (.zero...ceiling).contains(schedule.delay(afterFailures: failures)) })
        }
    }

    @Test func configurationRaisesAnIntervalBelowTheFloorAndClampsTheSpread() {
        var configuration = UpdaterConfiguration(interval: .zero, intervalSpread: 3)
        #expect(configuration.interval == UpdaterConfiguration.minimumInterval)
        #expect(configuration.intervalSpread == 0.5)
        configuration.interval = .seconds(-5)
        configuration.intervalSpread = -1
        #expect(configuration.interval == UpdaterConfiguration.minimumInterval)
        #expect(configuration.intervalSpread == 0)
    }
}
