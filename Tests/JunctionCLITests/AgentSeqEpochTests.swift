import Foundation
import JunctionArtifact
import Testing

/// Issue 27, item 5, end to end with `junction agent --once` on a `file://` channel: a
/// channel stranded by the largest seq there is comes back through a key of epoch 1, and
/// no pointer of epoch 0 — the stranded one, an older one — is taken after that.
@Suite struct AgentSeqEpochTests {
    typealias Device = AgentCommandTests.Device

    static func events(_ lines: [[String: Any]]) -> [String] { AgentCommandTests.events(lines) }

    @Test func aStrandedChannelRecoversThroughANewEpochAndTheOldOneIsNeverTakenAgain() throws {
        let device = try Device()
        let pointerPath = device.site + "/channels/stable.json"
        try device.publish(try ShippingFixtures.builds.thirtyDays, ["--seq", "5"])
        #expect(try device.agent().0.status == 0)
        let seqFive = try ShippingFixtures.bytes(pointerPath)

        // The mistake: the largest seq there is, published on purpose past the guard.
        try device.publish(try ShippingFixtures.builds.twentyDays, ["--seq", "9007199254740991", "--allow-seq-jump"])
        let stranded = try ShippingFixtures.bytes(pointerPath)
        var (result, lines) = try device.agent()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(Self.events(lines) == ["launched", "decision", "activated", "decision"])
        #expect(lines[2]["seq"] as? Int == 9_007_199_254_740_991)

        // Nothing of epoch 0 follows: publish refuses, and an older pointer is stale.
        let next = try CLIRunner.run(
            [
                "bundle", "publish", try ShippingFixtures.builds.thirtyDays, "--to", device.site, "--channel",
                "stable", "--key", device.key,
            ])
        #expect(next.status == 1)
        try Data(seqFive).write(to: URL(fileURLWithPath: pointerPath))
        (result, lines) = try device.agent()
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(lines[2]["code"] as? String == "staleSeq")
        try Data(stranded).write(to: URL(fileURLWithPath: pointerPath))

        // The recovery: a key of epoch 1, trusted by the device next to the old one.
        let epochOne = try SigningKey(seed: [UInt8](repeating: 31, count: 32), epoch: 1)
        let epochOneKey = try ShippingFixtures.writeKey(epochOne, in: device.folder, named: "epoch1")
        let artifact = try ShippingFixtures.buildExample(in: device.folder, named: "epoch1.jbundle", key: epochOne)
        let published = try CLIRunner.run(
            [
                "bundle", "publish", artifact, "--to", device.site, "--channel", "stable", "--key", epochOneKey,
                "--pubkey", device.key + ".pub",
            ])
        #expect(published.status == 0, "\(published.stdout)\(published.stderr)")
        let trustBoth = ["--pubkey", epochOneKey + ".pub"]
        // A device that does not trust the new key yet stays where it is.
        (result, lines) = try device.agent()
        #expect(lines[2]["code"] as? String == "pointerUnknownKey")
        (result, lines) = try device.agent(trustBoth)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(Self.events(lines) == ["launched", "decision", "activated", "decision"])
        #expect(lines[2]["epoch"] as? Int == 1)
        #expect(lines[2]["seq"] as? Int == 1)
        #expect((lines[3]["decision"] as? [String: Any])?["route"] as? String == "user.profile")

        // The stranded pointer, and the older one, replayed: refused, epoch 1 keeps deciding,
        // and a restart launches it from the store.
        for replay in [stranded, seqFive] {
            try Data(replay).write(to: URL(fileURLWithPath: pointerPath))
            (result, lines) = try device.agent(trustBoth)
            #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
            #expect(Self.events(lines) == ["launched", "decision", "refused", "decision"])
            #expect(lines[0]["origin"] as? String == "persisted")
            #expect(lines[0]["epoch"] as? Int == 1)
            #expect(lines[2]["code"] as? String == "staleEpoch")
            #expect((lines[2]["active"] as? [String: Any])?["epoch"] as? Int == 1)
            #expect((lines[2]["active"] as? [String: Any])?["seq"] as? Int == 1)
        }
        // The old key claiming epoch 1 cannot be made (publish signs the key's own epoch), and
        // a pointer of epoch 1 signed by it is refused on the device (SeqEpochAcceptanceTests).
    }
}
