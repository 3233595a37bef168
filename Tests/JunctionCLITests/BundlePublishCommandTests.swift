import Crypto
import Foundation
import JunctionArtifact
import Testing

@Suite struct BundlePublishCommandTests {
    /// A folder with the signing key and a fresh build of `rules/example`.
    struct Setup {
        let folder: String
        let key: String
        let artifact: String
        var site: String { folder + "/site" }

        init() throws {
            folder = try ShippingFixtures.folder()
            key = try ShippingFixtures.writeKey(in: folder)
            artifact = try ShippingFixtures.copy(
                try ShippingFixtures.builds.thirtyDays, to: folder, named: "example.jbundle")
        }

        var sha256: String {
            get throws {
                SHA256.hash(data: try ShippingFixtures.bytes(artifact)).map { String(format: "%02x", $0) }.joined()
            }
        }

        func publish(_ options: [String], artifact: String? = nil, channel: String = "stable") throws
            -> CLIRunner.Result
        {
            try CLIRunner.run(
                ["bundle", "publish", artifact ?? self.artifact, "--to", site, "--channel", channel, "--key", key]
                    + options)
        }

        func pointer(_ channel: String = "stable") throws -> ChannelPointer {
            try ChannelPointer(
                verifying: try ShippingFixtures.bytes(site + "/channels/\(channel).json"),
                keyring: Keyring([ShippingFixtures.key.publicKey]))
        }
    }

    @Test func publishWritesTheObjectAndASignedPointerInTheStaticLayout() throws {
        let setup = try Setup()
        let result = try setup.publish(["--created", "2026-11-23T09:30:00Z", "--expires", "7d"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let sha256 = try setup.sha256
        #expect(ShippingFixtures.listing(setup.site) == ["channels", "objects"])
        #expect(ShippingFixtures.listing(setup.site + "/objects") == ["\(sha256).jbundle"])
        #expect(ShippingFixtures.listing(setup.site + "/channels") == [".stable.served", "stable.json"])
        #expect(
            try ShippingFixtures.bytes(setup.site + "/objects/\(sha256).jbundle")
                == ShippingFixtures.bytes(setup.artifact))

        let pointer = try setup.pointer()
        #expect(pointer.channel == "stable")
        #expect(pointer.seq == 1)
        #expect(pointer.artifactSHA256 == sha256)
        #expect(pointer.artifactLength == (try ShippingFixtures.bytes(setup.artifact).count))
        #expect(pointer.created == (try Date("2026-11-23T09:30:00Z", strategy: .iso8601)))
        #expect(pointer.expires == (try Date("2026-11-30T09:30:00Z", strategy: .iso8601)))
        #expect(pointer.rollout.percent == 100)
        #expect(pointer.rollout.salt.wholeMatch(of: /[0-9a-f]{16}/) != nil)
        #expect(pointer.pinEmbedded == false)
        #expect(pointer.keyID == ShippingFixtures.key.keyID)
        #expect(
            result.stdout
                == "\(setup.site)/channels/stable.json: seq 1, channel stable → \(setup.site)/objects/\(sha256).jbundle, rollout 100% (salt \(pointer.rollout.salt)), expires 2026-11-30T09:30:00Z\n"
        )
        #expect(ShippingFixtures.listing(setup.site + "/channels").filter { $0.contains("tmp") } == [])
    }

    @Test func thePointerExpiresWithTheArtifactByDefaultAndNeverAfterIt() throws {
        let setup = try Setup()
        let artifact = try Artifact(
            verifying: try ShippingFixtures.bytes(setup.artifact), keyring: Keyring([ShippingFixtures.key.publicKey]),
            at: Date())
        #expect(try setup.publish([]).status == 0)
        #expect(try setup.pointer().expires == artifact.header.expires)

        let late = try setup.publish(["--expires", "31d"])
        #expect(late.status == 2)
        #expect(late.stderr.hasPrefix("bundle publish: error: --expires "))
        #expect(
            late.stderr.hasSuffix(
                " is later than the artifact's expiry \(artifact.header.expires.formatted(.iso8601)); a pointer never outlives its artifact\n"
            ))
        #expect(try setup.pointer().seq == 1)
    }

    @Test func seqStartsAtOneAndGoesUpByOneOrToAGreaterGivenOne() throws {
        let setup = try Setup()
        #expect(try setup.publish([]).status == 0)
        #expect(try setup.pointer().seq == 1)
        #expect(try setup.publish([]).status == 0)
        #expect(try setup.pointer().seq == 2)
        #expect(try setup.publish(["--seq", "10"]).status == 0)
        #expect(try setup.pointer().seq == 10)
        #expect(try setup.publish([]).status == 0)
        #expect(try setup.pointer().seq == 11)
        // Another channel has its own seq.
        #expect(try setup.publish([], channel: "beta").status == 0)
        #expect(try setup.pointer("beta").seq == 1)
    }

    // --force replaces only a pointer that does not verify; it never lowers a seq.
    @Test(arguments: [["--seq", "5"], ["--seq", "4"], ["--seq", "4", "--force"]])
    func aSeqNotGreaterThanTheCurrentOneIsRefused(options: [String]) throws {
        let setup = try Setup()
        #expect(try setup.publish(["--seq", "5"]).status == 0)
        let before = try ShippingFixtures.bytes(setup.site + "/channels/stable.json")
        let seq = options[1]
        let result = try setup.publish(options)
        #expect(result.status == 1)
        #expect(
            result.stdout
                == "\(setup.site)/channels/stable.json: refused: --seq \(seq) is not greater than the channel's current seq 5; a channel's seq only goes up (a rollback is a new, higher seq)\n"
        )
        #expect(try ShippingFixtures.bytes(setup.site + "/channels/stable.json") == before)
    }

    @Test func aRollbackIsTheOlderArtifactUnderAHigherSeq() throws {
        let setup = try Setup()
        let newer = try ShippingFixtures.copy(
            try ShippingFixtures.builds.twentyDays, to: setup.folder, named: "newer.jbundle")
        #expect(try setup.publish([]).status == 0)
        let old = try setup.pointer()
        #expect(try setup.publish([], artifact: newer).status == 0)
        #expect(try setup.pointer().seq == 2)
        #expect(try setup.pointer().artifactSHA256 != old.artifactSHA256)
        let rollback = try setup.publish([])
        #expect(rollback.status == 0)
        let pointer = try setup.pointer()
        #expect(pointer.seq == 3)
        #expect(pointer.artifactSHA256 == old.artifactSHA256)
        #expect(ShippingFixtures.listing(setup.site + "/objects").count == 2)
    }

    @Test func theSaltIsKeptWhileThePercentChangesForTheSameArtifact() throws {
        let setup = try Setup()
        #expect(try setup.publish(["--rollout", "10"]).status == 0)
        let first = try setup.pointer()
        #expect(first.rollout.percent == 10)
        #expect(try setup.publish(["--rollout", "12.5"]).status == 0)
        let raised = try setup.pointer()
        #expect(raised.rollout.percent == 12.5)
        #expect(raised.rollout.salt == first.rollout.salt)
        #expect(try setup.publish([]).status == 0)
        #expect(try setup.pointer().rollout.salt == first.rollout.salt)
        #expect(try setup.pointer().rollout.percent == 100)

        // Another artifact draws a new sample; --salt sets one.
        let other = try ShippingFixtures.copy(
            try ShippingFixtures.builds.twentyDays, to: setup.folder, named: "other.jbundle")
        #expect(try setup.publish(["--rollout", "10"], artifact: other).status == 0)
        #expect(try setup.pointer().rollout.salt != first.rollout.salt)
        #expect(try setup.publish(["--rollout", "20", "--salt", "spring-2026"], artifact: other).status == 0)
        #expect(try setup.pointer().rollout.salt == "spring-2026")
    }

    @Test func pinEmbeddedIsSignedIntoThePointer() throws {
        let setup = try Setup()
        let result = try setup.publish(["--pin-embedded"])
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix(", pin embedded\n"))
        #expect(try setup.pointer().pinEmbedded)
        let text = String(decoding: try ShippingFixtures.bytes(setup.site + "/channels/stable.json"), as: UTF8.self)
        #expect(text.contains(#""directives":{"pin_embedded":true}"#))
    }

    @Test func anArtifactOfAnotherKeyIsRefusedWithItsReason() throws {
        let setup = try Setup()
        let stranger = ShippingFixtures.stranger
        let foreign = try ShippingFixtures.copy(
            try ShippingFixtures.builds.stranger, to: setup.folder, named: "foreign.jbundle")
        let result = try setup.publish([], artifact: foreign)
        #expect(result.status == 1)
        #expect(
            result.stdout
                == "\(foreign): refused: unknownKey: the artifact is signed by key \(stranger.keyID), which is not in the keyring (\(ShippingFixtures.key.keyID))\n"
        )
        #expect(ShippingFixtures.listing(setup.site) == [])
    }

    @Test func aTamperedArtifactIsRefused() throws {
        let setup = try Setup()
        var bytes = try ShippingFixtures.bytes(setup.artifact)
        bytes[bytes.count - 100] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: setup.artifact))
        let result = try setup.publish([])
        #expect(result.status == 1)
        #expect(
            result.stdout
                == "\(setup.artifact): refused: badSignature: the signature at byte \(bytes.count - 64) does not verify with key \(ShippingFixtures.key.keyID)\n"
        )
        #expect(ShippingFixtures.listing(setup.site) == [])
    }

    @Test func anObjectThatExistsWithOtherBytesIsRefusedAndAnIdenticalOneKept() throws {
        let setup = try Setup()
        #expect(try setup.publish([]).status == 0)
        let object = setup.site + "/objects/\(try setup.sha256).jbundle"
        // The same bytes again: kept, and the channel moves on.
        #expect(try setup.publish([]).status == 0)
        #expect(try setup.pointer().seq == 2)

        var bytes = try ShippingFixtures.bytes(object)
        bytes[20] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: object))
        let result = try setup.publish([])
        #expect(result.status == 1)
        #expect(
            result.stdout
                == "\(object): refused: the object exists with other bytes than the artifact published, whose SHA-256 names it; objects are immutable, so it was tampered with: find out how, remove it, and publish again\n"
        )
        #expect(try setup.pointer().seq == 2)
        #expect(try ShippingFixtures.bytes(object) == bytes)

        // The right bytes and more: read only one byte past the artifact's length, and refused.
        bytes[20] ^= 1
        try Data(bytes + [UInt8](repeating: 0, count: 1 << 20)).write(to: URL(fileURLWithPath: object))
        let longer = try setup.publish([])
        #expect(longer.status == 1)
        #expect(longer.stdout.hasPrefix("\(object): refused: the object exists with other bytes than "))
    }

    @Test func anOversizeCurrentPointerIsRefusedUnread() throws {
        let setup = try Setup()
        #expect(try setup.publish([]).status == 0)
        let path = setup.site + "/channels/stable.json"
        try Data(repeating: 0x20, count: 1 << 20).write(to: URL(fileURLWithPath: path))
        let result = try setup.publish([])
        #expect(result.status == 1)
        #expect(
            result.stdout
                == "\(path): refused: the current pointer does not verify: oversize: the pointer is 16385 bytes; a pointer is at most 16384; find out who wrote it, then give --seq N --force to replace it\n"
        )
    }

    @Test func aCurrentPointerThatDoesNotVerifyIsRefusedUnlessSeqAndForceReplaceIt() throws {
        let setup = try Setup()
        #expect(try setup.publish(["--seq", "7"]).status == 0)
        let path = setup.site + "/channels/stable.json"
        let text = String(decoding: try ShippingFixtures.bytes(path), as: UTF8.self)
        #expect(text.contains(#""seq":7}"#))
        // "seq":9 is no longer what was signed.
        let bytes = Array(text.replacing(#""seq":7}"#, with: #""seq":9}"#).utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let refused = try setup.publish([])
        #expect(refused.status == 1)
        #expect(
            refused.stdout
                == "\(path): refused: the current pointer does not verify: badSignature: the signature does not verify with key \(ShippingFixtures.key.keyID); find out who wrote it, then give --seq N --force to replace it\n"
        )
        let seqOnly = try setup.publish(["--seq", "20"])
        #expect(seqOnly.status == 1)
        let forceOnly = try setup.publish(["--force"])
        #expect(forceOnly.status == 64)
        #expect(
            forceOnly.errorLine
                == "Error: --force replaces a current pointer that does not verify, and needs an explicit --seq")
        #expect(try ShippingFixtures.bytes(path) == bytes)

        let forced = try setup.publish(["--seq", "20", "--force"])
        #expect(forced.status == 0)
        #expect(forced.stderr.hasPrefix("\(path): replacing a pointer that does not verify (--force): badSignature: "))
        #expect(try setup.pointer().seq == 20)
    }

    @Test func aPointerOfAnotherKeyIsNotTheChannelsCurrentOne() throws {
        let setup = try Setup()
        let stranger = ShippingFixtures.stranger
        let strangerKey = try ShippingFixtures.writeKey(stranger, in: setup.folder, named: "stranger")
        let foreign = try ShippingFixtures.copy(
            try ShippingFixtures.builds.stranger, to: setup.folder, named: "foreign.jbundle")
        let first = try CLIRunner.run([
            "bundle", "publish", foreign, "--to", setup.site, "--channel", "stable", "--key", strangerKey,
        ])
        #expect(first.status == 0)
        let result = try setup.publish([])
        #expect(result.status == 1)
        #expect(
            result.stdout
                == "\(setup.site)/channels/stable.json: refused: the current pointer does not verify: unknownKey: the pointer is signed by key \(stranger.keyID), which is not in the keyring (\(ShippingFixtures.key.keyID)); find out who wrote it, then give --seq N --force to replace it\n"
        )
    }

    // ArgumentParser reads the values: a refused one is its usage error, the option, the
    // value and the reason on the first line.
    @Test(arguments: [
        (
            ["--channel", "Stable"],
            "The value 'Stable' is invalid for '--channel <name>': not a channel name: 1 to 64 of a-z 0-9 . _ -, starting with a letter or digit"
        ),
        (
            ["--channel", "../x"],
            "The value '../x' is invalid for '--channel <name>': not a channel name: 1 to 64 of a-z 0-9 . _ -, starting with a letter or digit"
        ),
        (
            ["--channel", ".hidden"],
            "The value '.hidden' is invalid for '--channel <name>': not a channel name: 1 to 64 of a-z 0-9 . _ -, starting with a letter or digit"
        ),
        (
            ["--channel", "a/b"],
            "The value 'a/b' is invalid for '--channel <name>': not a channel name: 1 to 64 of a-z 0-9 . _ -, starting with a letter or digit"
        ),
        (
            ["--channel", ""],
            "The value '' is invalid for '--channel <name>': not a channel name: 1 to 64 of a-z 0-9 . _ -, starting with a letter or digit"
        ),
        (
            ["--seq", "0"],
            "The value '0' is invalid for '--seq <n>': not a whole number from 1 to 9007199254740991 (2^53 - 1, the largest a pointer carries)"
        ),
        (
            ["--seq=-3"],
            "The value '-3' is invalid for '--seq <n>': not a whole number from 1 to 9007199254740991 (2^53 - 1, the largest a pointer carries)"
        ),
        (
            ["--seq", "9223372036854775808"],
            "The value '9223372036854775808' is invalid for '--seq <n>': not a whole number from 1 to 9007199254740991 (2^53 - 1, the largest a pointer carries)"
        ),
        // Issue 27, item 5: this typo was published without a word and stranded the channel.
        (
            ["--seq", "9223372036854775807"],
            "The value '9223372036854775807' is invalid for '--seq <n>': not a whole number from 1 to 9007199254740991 (2^53 - 1, the largest a pointer carries)"
        ),
        (
            ["--seq", "9007199254740992"],
            "The value '9007199254740992' is invalid for '--seq <n>': not a whole number from 1 to 9007199254740991 (2^53 - 1, the largest a pointer carries)"
        ),
        (
            ["--seq", "99999999999999999999"],
            "The value '99999999999999999999' is invalid for '--seq <n>': not a whole number from 1 to 9007199254740991 (2^53 - 1, the largest a pointer carries)"
        ),
        (
            ["--rollout", "101"],
            "The value '101' is invalid for '--rollout <percent>': not a percentage from 0 to 100 (12.5)"
        ),
        (
            ["--rollout", "1e2"],
            "The value '1e2' is invalid for '--rollout <percent>': not a percentage from 0 to 100 (12.5)"
        ),
        (
            ["--rollout", "nan"],
            "The value 'nan' is invalid for '--rollout <percent>': not a percentage from 0 to 100 (12.5)"
        ),
        (
            ["--salt", "has space"],
            "The value 'has space' is invalid for '--salt <text>': not 1 to 64 of A-Z a-z 0-9 . _ -"
        ),
        (
            ["--created", "yesterday"],
            "The value 'yesterday' is invalid for '--created <date>': not an RFC 3339 date and time in whole seconds, like 2026-06-30T00:00:00Z"
        ),
        (
            ["--channel", String(repeating: "a", count: 65)],
            "The value '\(String(repeating: "a", count: 65))' is invalid for '--channel <name>': not a channel name: 1 to 64 of a-z 0-9 . _ -, starting with a letter or digit"
        ),
    ])
    func badOptionsAreUsageErrorsAndWriteNothing(options: [String], message: String) throws {
        let setup = try Setup()
        var arguments = ["bundle", "publish", setup.artifact, "--to", setup.site, "--key", setup.key]
        if !options.contains("--channel") { arguments += ["--channel", "stable"] }
        let result = try CLIRunner.run(arguments + options)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.errorLine == "Error: \(message)")
        #expect(ShippingFixtures.listing(setup.site) == [])
    }

    // Whether --expires comes after the creation time is known only once that time is
    // (--created, SOURCE_DATE_EPOCH or now): the command's usage error.
    @Test func anExpiryNotAfterTheCreationTimeIsAUsageErrorAndWritesNothing() throws {
        let setup = try Setup()
        let result = try setup.publish(["--expires", "2000-01-01T00:00:00Z", "--created", "2026-11-23T09:30:00Z"])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "bundle publish: error: --expires 2000-01-01T00:00:00Z is not after the creation time 2026-11-23T09:30:00Z; an artifact or pointer must be valid for a while\n"
        )
        #expect(ShippingFixtures.listing(setup.site) == [])
    }

    @Test func anUnreadableFileOrKeyExitsTwo() throws {
        let setup = try Setup()
        let missing = try setup.publish([], artifact: setup.folder + "/none.jbundle")
        #expect(missing.status == 2)
        #expect(missing.stderr == "\(setup.folder)/none.jbundle: cannot read \(setup.folder)/none.jbundle\n")
        let publicKey = try CLIRunner.run([
            "bundle", "publish", setup.artifact, "--to", setup.site, "--channel", "stable", "--key", setup.key + ".pub",
        ])
        #expect(publicKey.status == 2)
        #expect(publicKey.stderr.hasPrefix("bundle publish: badKeyFile: \(setup.key).pub is not a private key file"))
        #expect(ShippingFixtures.listing(setup.site) == [])
    }
}
