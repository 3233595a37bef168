import JunctionCore
import Testing

@Suite struct RolloutTests {
    /// Pinned values: devices, servers and the CLI must bucket alike forever, so the
    /// algorithm may never change. A failure here means it did.
    @Test(arguments: [
        ("new-checkout", "user-1", 8393),
        ("new-checkout", "user-2", 5824),
        ("new-checkout", "", 2214),
        ("", "user-1", 2772),
        ("灰度", "用户42", 5648),
    ])
    func bucketsExactlyAsSpecified(_ key: String, _ id: String, _ bucket: Int) {
        #expect(Rollout.bucket(key: key, id: id) == bucket)
    }

    @Test func includesAboutThePercentageAsked() {
        let ids = (0..<100_000).map { "user-\($0)" }
        let included = ids.filter { Rollout.includes(key: "new-checkout", id: $0, percent: 10) }.count
        #expect((9_600...10_400).contains(included), "\(included)")
    }

    @Test func onlyAddsUsersWhenThePercentageRises() {
        for id in (0..<5_000).map({ "device-\($0)" }) where Rollout.includes(key: "k", id: id, percent: 10) {
            #expect(Rollout.includes(key: "k", id: id, percent: 25.5))
        }
    }

    @Test func spreadsTheSameIdsIndependentlyPerKey() {
        let ids = (0..<20_000).map { "u\($0)" }
        let both = ids.filter {
            Rollout.includes(key: "a", id: $0, percent: 50) && Rollout.includes(key: "b", id: $0, percent: 50)
        }.count
        #expect((4_600...5_400).contains(both), "\(both)")
    }

    @Test func treatsTheEndsExactly() {
        #expect(!Rollout.includes(key: "k", id: "x", percent: 0))
        #expect(!Rollout.includes(key: "k", id: "x", percent: -5))
        #expect(Rollout.includes(key: "k", id: "x", percent: 100))
        #expect(Rollout.includes(key: "k", id: "x", percent: 250))
    }
}
