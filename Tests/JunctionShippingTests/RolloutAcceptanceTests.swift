import Foundation
import Junction
import JunctionShipping
import JunctionArtifact
import JunctionTestSupport
import Testing

/// A pointer's rollout on the device: which pointers a device takes by its install id, and
/// that one it is not in moves nothing.
@Suite struct RolloutAcceptanceTests {
    typealias Fixture = InstallerFixture

    /// `device-1` sits at 84.97449…% for salt `a1b2c3` (see `RolloutSelectionTests`).
    static func pointer(seq: UInt64, percent: Double, artifact: [UInt8] = Fixture.artifact6, pin: Bool = false)
        -> [UInt8]
    {
        let key = ShippingFixture.key
        return try! ChannelPointer(
            channel: "stable", seq: seq, artifactSHA256: ShippingFixture.hash(artifact), artifactLength: artifact.count,
            created: ShippingFixture.now.addingTimeInterval(-3_600),
            expires: ShippingFixture.now.addingTimeInterval(7 * 86_400),
            rollout: try ChannelPointer.Rollout(percent: percent, salt: "a1b2c3"), pinEmbedded: pin, keyID: key.keyID
        ).signed(with: key)
    }

    static func acceptance(installID: String?) -> UpdateAcceptance {
        var policy = ShippingFixture.policy
        policy.installID = installID
        return UpdateAcceptance(policy: policy)
    }

    enum Check: String, Sendable {
        case fetch, notInRollout, pinEmbedded, unchanged
    }

    @Test(
        arguments: [
            ("device-1", 84.97, false, UInt64(6), Check.notInRollout),
            ("device-1", 84.98, false, 6, .fetch),
            ("device-1", 100, false, 6, .fetch),
            ("device-1", 0, false, 6, .notInRollout),
            ("device-1", 0, true, 6, .pinEmbedded),  // the kill switch reaches every device
            ("device-1", 0, false, 5, .unchanged),  // the update it holds, whatever the percent
            (nil, 99.9, false, 6, .notInRollout),  // a device it cannot place takes 100% only
            (nil, 100, false, 6, .fetch),
        ] as [(String?, Double, Bool, UInt64, Check)])
    func aDeviceTakesAPointerByItsInstallID(
        installID: String?, percent: Double, pin: Bool, seq: UInt64, expected: Check
    ) throws {
        let artifact = seq == 5 ? Fixture.artifact5 : Fixture.artifact6
        let check = try Self.acceptance(installID: installID).checkPointer(
            Self.pointer(seq: seq, percent: percent, artifact: artifact, pin: pin), accepted: Fixture.identity5,
            failed: [], at: ShippingFixture.now)
        let kind: Check =
            switch check {
            case .fetch: .fetch
            case .notInRollout: .notInRollout
            case .pinEmbedded: .pinEmbedded
            case .unchanged: .unchanged
            }
        #expect(kind == expected)
    }

    @Test func aPointerForOtherDevicesMovesNothingAndAHigherPercentLaterInstalls() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let installer = try Fixture.launch(directory, acceptance: Self.acceptance(installID: "device-1"))
        let server = Fixture.Server(Fixture.artifact6)
        let skipped = await installer.install(
            pointer: Self.pointer(seq: 6, percent: 10), at: Fixture.now, fetch: server.fetch)
        #expect(skipped == .notInRollout(Fixture.identity6, percent: 10))
        #expect(skipped.description == "not in the rollout of \(Fixture.identity6): 10% of devices")
        #expect(server.count == 0)
        #expect(!FileManager.default.fileExists(atPath: directory), "nothing was persisted")
        #expect(await installer.status(at: Fixture.now).active == Fixture.embeddedIdentity)

        let raised = await installer.install(
            pointer: Self.pointer(seq: 7, percent: 90), at: Fixture.now, fetch: server.fetch)
        #expect(raised == .installed(UpdateIdentity(seq: 7, artifact: Fixture.artifact6)))
        #expect(server.count == 1)
    }
}
