import JunctionArtifact
import Testing

/// Which devices a rollout takes: deterministic, monotone in the percent, and as many as
/// it says.
@Suite struct RolloutSelectionTests {
    /// Positions computed independently, in Python:
    /// `int.from_bytes(hashlib.sha256(salt.encode() + b"\0" + iid.encode()).digest()[:8], "big") >> 11`
    /// `/ 2**53 * 100` — 84.97449…, 91.48474…, 30.63477….
    @Test(arguments: [
        ("a1b2c3", "device-1", 84.97, 84.98),
        ("summer", "00000000-0000-0000-0000-000000000000", 91.48, 91.49),
        ("all", "x", 30.63, 30.64),
    ])
    func aDeviceIsInFromItsPositionOn(salt: String, installID: String, below: Double, above: Double) throws {
        #expect(!(try ChannelPointer.Rollout(percent: below, salt: salt)).includes(installID: installID))
        #expect(try ChannelPointer.Rollout(percent: above, salt: salt).includes(installID: installID))
    }

    static let installIDs = (0..<100_000).map { "install-\($0)" }

    @Test(arguments: [1.0, 5, 10, 12.5, 25, 50, 75, 90, 99])
    func theShareIsWithinOnePointOfThePercentOver100000Devices(percent: Double) throws {
        let rollout = try ChannelPointer.Rollout(percent: percent, salt: "k7Qx2")
        let share = Double(Self.installIDs.filter(rollout.includes).count) / Double(Self.installIDs.count) * 100
        #expect(abs(share - percent) <= 1, "\(share)% for \(percent)%")
    }

    @Test func noneAtZeroAndEveryoneAtOneHundred() throws {
        let ids = Self.installIDs.prefix(5_000)
        #expect(!ids.contains(where: try ChannelPointer.Rollout(percent: 0, salt: "s").includes))
        #expect(ids.allSatisfy(try ChannelPointer.Rollout(percent: 100, salt: "s").includes))
        #expect(ids.allSatisfy(ChannelPointer.Rollout.everyone.includes))
    }

    @Test func raisingThePercentNeverDropsADevice() throws {
        let ids = Self.installIDs.prefix(10_000)
        var previous: Set<String> = []
        for percent in [0.5, 1, 2, 5, 10, 12.5, 20, 33.3, 50, 80, 99.9, 100] {
            let taken = Set(ids.filter(try ChannelPointer.Rollout(percent: percent, salt: "monotone").includes))
            #expect(previous.isSubset(of: taken), "\(percent)%")
            previous = taken
        }
    }

    @Test func anotherSaltDrawsAnotherSample() throws {
        let ids = Self.installIDs.prefix(20_000)
        let first = Set(ids.filter(try ChannelPointer.Rollout(percent: 50, salt: "one").includes))
        let second = Set(ids.filter(try ChannelPointer.Rollout(percent: 50, salt: "two").includes))
        let overlap = Double(first.intersection(second).count) / Double(ids.count)
        // Independent halves overlap on about a quarter of the devices.
        #expect(abs(overlap - 0.25) < 0.02, "\(overlap)")
    }
}
