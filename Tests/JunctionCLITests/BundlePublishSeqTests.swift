import Foundation
import JunctionArtifact
import Testing

/// Issue 27, item 5: `bundle publish --seq 9223372036854775807` succeeded without a word and
/// stranded the channel. What `publish` lets a seq do: at most 2⁵³ − 1 (the usage table in
/// `BundlePublishCommandTests`), at most 1,000 past the current one unless told, and a key
/// of a later epoch starting it afresh.
@Suite struct BundlePublishSeqTests {
    typealias Setup = BundlePublishCommandTests.Setup

    static func pointer(_ setup: Setup, keys: [SigningKey] = [ShippingFixtures.key]) throws -> ChannelPointer {
        try ChannelPointer(
            verifying: try ShippingFixtures.bytes(setup.site + "/channels/stable.json"),
            keyring: Keyring(keys.map(\.publicKey)))
    }

    @Test func aJumpOfMoreThanAThousandIsRefusedUnlessAllowedAndSaysWhy() throws {
        let setup = try Setup()
        let path = setup.site + "/channels/stable.json"
        // A new channel counts from 0.
        let fresh = try setup.publish(["--seq", "1001"])
        #expect(fresh.status == 1)
        #expect(
            fresh.stdout
                == "\(path): refused: --seq 1001 is 1001 past the channel's seq 0 (it has no pointer yet), more than the 1000 a publish may jump: a device that takes it never again accepts a seq of 1001 or lower, leaving 9007199254739990 for every publish after it; give --allow-seq-jump if that is what you mean\n"
        )
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try setup.publish(["--seq", "5"]).status == 0)
        let before = try ShippingFixtures.bytes(path)
        let typo = try setup.publish(["--seq", "9007199254740991"])
        #expect(typo.status == 1)
        #expect(
            typo.stdout
                == "\(path): refused: --seq 9007199254740991 is 9007199254740986 past the channel's current seq 5, more than the 1000 a publish may jump: a device that takes it never again accepts a seq of 9007199254740991 or lower, leaving 0 for every publish after it; give --allow-seq-jump if that is what you mean\n"
        )
        #expect(try ShippingFixtures.bytes(path) == before)
        #expect(try setup.publish(["--seq", "1005"]).status == 0)
        #expect(try Self.pointer(setup).seq == 1005)
        let allowed = try setup.publish(["--seq", "9007199254740991", "--allow-seq-jump"])
        #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
        #expect(try Self.pointer(setup).seq == 9_007_199_254_740_991)
        // Nothing follows it in this epoch, and publish says how to go on.
        let next = try setup.publish([])
        #expect(next.status == 1)
        #expect(
            next.stdout
                == "\(path): refused: the channel's seq is 9007199254740991, the largest there is; devices that took it accept no other pointer of this epoch: make a key of epoch 1 (junction keygen --epoch 1), add its public key to the apps, and publish with it (docs/artifacts.md, \"Seq epochs\")\n"
        )
    }

    @Test func aKeyOfALaterEpochStartsTheSeqAfreshAndAnEarlierEpochIsRefused() throws {
        let setup = try Setup()
        let path = setup.site + "/channels/stable.json"
        #expect(try setup.publish(["--seq", "9007199254740991", "--allow-seq-jump"]).status == 0)

        let epochOne = try SigningKey(seed: [UInt8](repeating: 21, count: 32), epoch: 1)
        let epochOneKey = try ShippingFixtures.writeKey(epochOne, in: setup.folder, named: "epoch1")
        let artifact = try ShippingFixtures.buildExample(in: setup.folder, named: "epoch1.jbundle", key: epochOne)
        func publish(_ options: [String], key: String = epochOneKey) throws -> CLIRunner.Result {
            try CLIRunner.run(
                ["bundle", "publish", artifact, "--to", setup.site, "--channel", "stable", "--key", key] + options)
        }
        // The current pointer is the old key's: named with --pubkey, it is read, not replaced.
        let unread = try publish([])
        #expect(unread.status == 1)
        #expect(unread.stdout.hasPrefix("\(path): refused: the current pointer does not verify: unknownKey"))
        let recovery = try publish(["--pubkey", setup.key + ".pub"])
        #expect(recovery.status == 0, "\(recovery.stdout)\(recovery.stderr)")
        #expect(recovery.stdout.hasPrefix("\(path): epoch 1, seq 1, channel stable → "))
        let pointer = try Self.pointer(setup, keys: [epochOne])
        #expect(pointer.epoch == 1 && pointer.seq == 1)
        #expect(try publish([]).status == 0)
        #expect(try Self.pointer(setup, keys: [epochOne]).seq == 2)
        // A jump is measured within the epoch.
        #expect(try publish(["--seq", "1003"]).status == 1)

        // The old key can publish nothing devices would take again.
        let old = try CLIRunner.run(
            [
                "bundle", "publish", setup.artifact, "--to", setup.site, "--channel", "stable", "--key", setup.key,
                "--pubkey", epochOneKey + ".pub",
            ])
        #expect(old.status == 1)
        #expect(
            old.stdout
                == "\(path): refused: the channel is at epoch 1 (seq 2), but the key signs epoch 0: devices that took epoch 1 never accept a pointer of an earlier one; publish with the key of epoch 1 or later\n"
        )
    }

    @Test func keygenWritesTheEpochIntoBothFiles() throws {
        let folder = try ShippingFixtures.folder()
        let result = try CLIRunner.run(["keygen", "--out", folder + "/k", "--epoch", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try KeyFile.readSigningKey(at: folder + "/k").epoch == 2)
        #expect(try KeyFile.readVerificationKey(at: folder + "/k.pub").epoch == 2)
        #expect(result.stderr == "wrote \(folder)/k (private, mode 0600) and \(folder)/k.pub, a key of epoch 2\n")
        let bad = try CLIRunner.run(["keygen", "--out", folder + "/j", "--epoch", "9007199254740992"])
        #expect(bad.status == 64)
        #expect(
            bad.errorLine
                == "Error: The value '9007199254740992' is invalid for '--epoch <n>': not a whole number from 0 to 9007199254740991"
        )
    }
}
