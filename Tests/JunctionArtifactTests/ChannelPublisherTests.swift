import Foundation
import JunctionArtifact
import Testing

/// The rules of publishing, one row each: what the site holds and what is asked, against
/// the pointer published or the refusal.
@Suite struct ChannelPublisherTests {
    /// The key of epoch 1, for a channel that starts its seq afresh.
    static let epochOneKey = try! SigningKey(seed: [UInt8](repeating: 3, count: 32), epoch: 1)

    /// The fixture artifact, verified.
    static let artifact = try! Artifact(verifying: Fixtures.artifact, keyring: Fixtures.keyring, at: Fixtures.now)

    /// Another artifact of the same key: other bytes, another object name.
    static let otherArtifact: Artifact = {
        var builder = ArtifactBuilder(
            name: "example", version: "3.2", created: Fixtures.created, expires: Fixtures.expires,
            minimumHostVersion: "2.0")
        for member in Fixtures.members { builder.add(path: member.path, kind: member.kind, bytes: member.bytes) }
        return try! Artifact(
            verifying: try! builder.build(signedWith: Fixtures.key), keyring: Fixtures.keyring, at: Fixtures.now)
    }()

    /// The fixture artifact signed by another key.
    static let foreignArtifact = try! Artifact(
        verifying: try! Fixtures.builder.build(signedWith: Fixtures.otherKey),
        keyring: Keyring([Fixtures.otherKey.publicKey]), at: Fixtures.now)

    /// The salt of every current pointer the table makes.
    static let currentSalt = "current-salt"

    /// A current pointer file of `channel` at `seq` in `key`'s epoch, naming `artifact`.
    static func pointer(
        seq: UInt64, key: SigningKey = Fixtures.key, artifact: Artifact = artifact, channel: String = "stable"
    ) -> [UInt8] {
        try! ChannelPointer(
            channel: channel, seq: seq, epoch: key.epoch, artifactSHA256: Fixtures.sha256(artifact.bytes),
            artifactLength: artifact.bytes.count, created: Fixtures.created, expires: Fixtures.expires,
            rollout: ChannelPointer.Rollout(percent: 10, salt: currentSalt), keyID: key.keyID
        ).signed(with: key)
    }

    /// What a row expects of the new pointer's salt.
    enum Salt: Sendable {
        /// The current pointer's.
        case kept
        /// This one, given.
        case given(String)
        /// A new one: 16 lowercase hex digits.
        case drawn
    }

    /// What a row expects.
    enum Outcome: Sendable {
        /// A pointer of this seq and epoch, with this salt; the object written or kept.
        case published(seq: UInt64, epoch: UInt64 = 0, salt: Salt, writesObject: Bool = true)
        /// This refusal.
        case refused(PublishError.Code, String)
    }

    /// One rule at work.
    struct Case: Sendable, CustomTestStringConvertible {
        var rule: String
        var key: SigningKey = Fixtures.key
        var previousKeys: [VerificationKey] = []
        var artifact: Artifact = ChannelPublisherTests.artifact
        var site = ChannelPublisher.Site()
        var options = ChannelPublisher.Options(created: Fixtures.now)
        var outcome: Outcome

        var testDescription: String { rule }
    }

    static let max = ChannelPointer.maximumSeq

    static let cases: [Case] = [
        Case(rule: "a first publish takes seq 1 and draws a salt", outcome: .published(seq: 1, salt: .drawn)),
        Case(
            rule: "the next seq is the current one plus one",
            site: .init(pointer: pointer(seq: 5)), outcome: .published(seq: 6, salt: .kept)),
        Case(
            rule: "an explicit seq greater than the current one is taken",
            site: .init(pointer: pointer(seq: 5)), options: .init(created: Fixtures.now, seq: .exactly(10)),
            outcome: .published(seq: 10, salt: .kept)),
        Case(
            rule: "an explicit seq equal to the current one is refused",
            site: .init(pointer: pointer(seq: 5)), options: .init(created: Fixtures.now, seq: .exactly(5)),
            outcome: .refused(
                .seqNotGreater,
                "--seq 5 is not greater than the channel's current seq 5; a channel's seq only goes up (a rollback is a new, higher seq)"
            )),
        Case(
            rule: "an explicit seq lower than the current one is refused",
            site: .init(pointer: pointer(seq: 5)), options: .init(created: Fixtures.now, seq: .exactly(4)),
            outcome: .refused(
                .seqNotGreater,
                "--seq 4 is not greater than the channel's current seq 5; a channel's seq only goes up (a rollback is a new, higher seq)"
            )),
        Case(
            rule: "an explicit seq may go the step past the current one",
            site: .init(pointer: pointer(seq: 5)), options: .init(created: Fixtures.now, seq: .exactly(1_005)),
            outcome: .published(seq: 1_005, salt: .kept)),
        Case(
            rule: "an explicit seq more than the step past the current one is refused",
            site: .init(pointer: pointer(seq: 5)), options: .init(created: Fixtures.now, seq: .exactly(1_006)),
            outcome: .refused(
                .seqJump,
                "--seq 1006 is 1001 past the channel's current seq 5, more than the 1000 a publish may jump: a device that takes it never again accepts a seq of 1006 or lower, leaving 9007199254739985 for every publish after it; give --allow-seq-jump if that is what you mean"
            )),
        Case(
            rule: "a jump is measured from 0 on a new channel",
            options: .init(created: Fixtures.now, seq: .exactly(1_001)),
            outcome: .refused(
                .seqJump,
                "--seq 1001 is 1001 past the channel's seq 0 (it has no pointer yet), more than the 1000 a publish may jump: a device that takes it never again accepts a seq of 1001 or lower, leaving 9007199254739990 for every publish after it; give --allow-seq-jump if that is what you mean"
            )),
        Case(
            rule: "a jump allowed goes as far as the largest seq",
            site: .init(pointer: pointer(seq: 5)),
            options: .init(created: Fixtures.now, seq: .exactly(max), allowsSeqJump: true),
            outcome: .published(seq: max, salt: .kept)),
        Case(
            rule: "no seq follows the largest in its epoch",
            site: .init(pointer: pointer(seq: max)),
            outcome: .refused(
                .seqExhausted,
                "the channel's seq is 9007199254740991, the largest there is; devices that took it accept no other pointer of this epoch: make a key of epoch 1 (junction keygen --epoch 1), add its public key to the apps, and publish with it (docs/artifacts.md, \"Seq epochs\")"
            )),
        Case(
            rule: "a key of a later epoch starts the seq afresh",
            key: epochOneKey, previousKeys: [Fixtures.key.publicKey],
            artifact: try! Artifact(
                verifying: try! Fixtures.builder.build(signedWith: epochOneKey),
                keyring: Keyring([epochOneKey.publicKey]),
                at: Fixtures.now),
            site: .init(pointer: pointer(seq: max)), outcome: .published(seq: 1, epoch: 1, salt: .drawn)),
        Case(
            rule: "a jump in a new epoch is measured from 0",
            key: epochOneKey, previousKeys: [Fixtures.key.publicKey],
            artifact: try! Artifact(
                verifying: try! Fixtures.builder.build(signedWith: epochOneKey),
                keyring: Keyring([epochOneKey.publicKey]),
                at: Fixtures.now),
            site: .init(pointer: pointer(seq: 5)), options: .init(created: Fixtures.now, seq: .exactly(1_003)),
            outcome: .refused(
                .seqJump,
                "--seq 1003 is 1003 past the channel's current seq 0 (a new epoch starts at 0), more than the 1000 a publish may jump: a device that takes it never again accepts a seq of 1003 or lower of epoch 1, leaving 9007199254739988 for every publish after it; give --allow-seq-jump if that is what you mean"
            )),
        Case(
            rule: "a key of an earlier epoch than the channel's publishes nothing",
            previousKeys: [epochOneKey.publicKey], site: .init(pointer: pointer(seq: 2, key: epochOneKey)),
            outcome: .refused(
                .earlierEpoch,
                "the channel is at epoch 1 (seq 2), but the key signs epoch 0: devices that took epoch 1 never accept a pointer of an earlier one; publish with the key of epoch 1 or later"
            )),
        Case(
            rule: "the salt is kept while the pointer names the same artifact",
            site: .init(pointer: pointer(seq: 1)), options: .init(created: Fixtures.now, rolloutPercent: 50),
            outcome: .published(seq: 2, salt: .kept)),
        Case(
            rule: "another artifact draws a new salt",
            artifact: otherArtifact, site: .init(pointer: pointer(seq: 1)),
            outcome: .published(seq: 2, salt: .drawn)),
        Case(
            rule: "a given salt replaces the kept one",
            site: .init(pointer: pointer(seq: 1)), options: .init(created: Fixtures.now, salt: "spring-2026"),
            outcome: .published(seq: 2, salt: .given("spring-2026"))),
        Case(
            rule: "an object with the artifact's bytes is kept, not written",
            site: .init(object: Fixtures.artifact), outcome: .published(seq: 1, salt: .drawn, writesObject: false)),
        Case(
            rule: "an object with other bytes is immutable",
            site: .init(object: Fixtures.artifact.dropLast() + [0]),
            outcome: .refused(
                .objectDiffers,
                "the object exists with other bytes than the artifact published, whose SHA-256 names it; objects are immutable, so it was tampered with: find out how, remove it, and publish again"
            )),
        Case(
            rule: "an object longer than the artifact is immutable",
            site: .init(object: Fixtures.artifact + [0]),
            outcome: .refused(
                .objectDiffers,
                "the object exists with other bytes than the artifact published, whose SHA-256 names it; objects are immutable, so it was tampered with: find out how, remove it, and publish again"
            )),
        Case(
            rule: "a name taken by what is no regular file is immutable",
            site: .init(object: []),
            outcome: .refused(
                .objectDiffers,
                "the object exists with other bytes than the artifact published, whose SHA-256 names it; objects are immutable, so it was tampered with: find out how, remove it, and publish again"
            )),
        Case(
            rule: "a current pointer that does not verify is refused",
            site: .init(pointer: Array(#"{"signature":"","signed":{}}"#.utf8)),
            outcome: .refused(
                .unverifiedPointer,
                "the current pointer does not verify: unsigned: the pointer has no signature; sign it with junction bundle publish; find out who wrote it, then give --seq N --force to replace it"
            )),
        Case(
            rule: "a current pointer of another channel is refused",
            site: .init(pointer: pointer(seq: 3, channel: "beta")),
            outcome: .refused(
                .unverifiedPointer,
                #"the current pointer does not verify: it names channel "beta", not "stable"; find out who wrote it, then give --seq N --force to replace it"#
            )),
        Case(
            rule: "replacing a pointer that does not verify needs an explicit seq",
            site: .init(pointer: pointer(seq: 3, channel: "beta")),
            options: .init(created: Fixtures.now, replacesUnverifiedPointer: true),
            outcome: .refused(
                .unverifiedPointer,
                #"the current pointer does not verify: it names channel "beta", not "stable"; find out who wrote it, then give --seq N --force to replace it"#
            )),
        Case(
            rule: "an explicit seq replaces a pointer that does not verify when asked",
            site: .init(pointer: pointer(seq: 3, channel: "beta")),
            options: .init(created: Fixtures.now, seq: .exactly(20), replacesUnverifiedPointer: true),
            outcome: .published(seq: 20, salt: .drawn)),
        Case(
            rule: "a pointer of a previous key is the current one",
            key: Fixtures.key, previousKeys: [Fixtures.otherKey.publicKey],
            site: .init(pointer: pointer(seq: 7, key: Fixtures.otherKey)), outcome: .published(seq: 8, salt: .kept)),
        Case(
            rule: "a pointer of a key neither current nor previous does not verify",
            site: .init(pointer: pointer(seq: 7, key: Fixtures.otherKey)),
            outcome: .refused(
                .unverifiedPointer,
                "the current pointer does not verify: unknownKey: the pointer is signed by key \(Fixtures.otherKey.keyID), which is not in the keyring (\(Fixtures.key.keyID)); find out who wrote it, then give --seq N --force to replace it"
            )),
        Case(
            rule: "the pointer never outlives its artifact",
            options: .init(created: Fixtures.now, expires: Fixtures.expires.addingTimeInterval(1)),
            outcome: .refused(
                .outlivesArtifact,
                "--expires 2026-07-01T00:00:01Z is later than the artifact's expiry 2026-07-01T00:00:00Z; a pointer never outlives its artifact"
            )),
        Case(
            rule: "options that make no valid pointer are refused with the pointer's reason",
            options: .init(created: Fixtures.now, rolloutPercent: 101),
            outcome: .refused(
                .invalidPointer, "the pointer cannot be made: malformed: rollout.percent: 101.0 is not from 0 to 100")),
        Case(
            rule: "a pointer created after its artifact expires cannot be made",
            options: .init(created: Fixtures.expires),
            outcome: .refused(
                .invalidPointer,
                "the pointer cannot be made: malformed: expires: 2026-07-01T00:00:00Z is not after created 2026-07-01T00:00:00Z"
            )),
        Case(
            rule: "an artifact of another key is not published",
            artifact: foreignArtifact,
            outcome: .refused(
                .foreignArtifact,
                "the artifact is signed by key \(Fixtures.otherKey.keyID), but published with key \(Fixtures.key.keyID); publish it with the key that signed it"
            )),
    ]

    @Test(arguments: cases)
    func publishesByTheRules(_ row: Case) throws {
        let publisher = ChannelPublisher(channel: "stable", key: row.key, previousKeys: row.previousKeys)
        let result = Result { () throws(PublishError) in
            try publisher.publish(row.artifact, to: row.site, options: row.options)
        }
        switch (row.outcome, result) {
        case (.refused(let code, let message), .failure(let error)):
            #expect(error == PublishError(code, message))
        case (.published(let seq, let epoch, let salt, let writesObject), .success(let publication)):
            let pointer = publication.pointer
            #expect((pointer.channel, pointer.seq, pointer.epoch) == ("stable", seq, epoch))
            #expect(pointer.keyID == row.key.keyID)
            #expect(pointer.artifactSHA256 == Fixtures.sha256(row.artifact.bytes))
            #expect(pointer.artifactLength == row.artifact.bytes.count)
            #expect(pointer.rollout.percent == row.options.rolloutPercent)
            switch salt {
            case .kept: #expect(pointer.rollout.salt == Self.currentSalt)
            case .given(let given): #expect(pointer.rollout.salt == given)
            case .drawn:
                #expect(pointer.rollout.salt.wholeMatch(of: /[0-9a-f]{16}/) != nil)
            }
            #expect(publication.writesObject == writesObject)
            #expect(publication.pointerPath == "channels/stable.json")
            #expect(publication.objectPath == "objects/\(pointer.artifactSHA256).jbundle")
            // The file is the pointer, signed by the publishing key.
            let keyring = Keyring([row.key.publicKey])
            #expect(try ChannelPointer(verifying: publication.signedPointer, keyring: keyring) == pointer)
        default:
            Issue.record("expected \(row.outcome), got \(result)")
        }
    }

    @Test func aReplacedPointerIsReportedWithWhyItDidNotVerify() throws {
        let publisher = ChannelPublisher(channel: "stable", key: Fixtures.key)
        let replaced = try publisher.publish(
            Self.artifact, to: .init(pointer: Self.pointer(seq: 3, channel: "beta")),
            options: .init(created: Fixtures.now, seq: .exactly(20), replacesUnverifiedPointer: true))
        #expect(replaced.replacedPointerProblem == #"it names channel "beta", not "stable""#)
        let verified = try publisher.publish(
            Self.artifact, to: .init(pointer: Self.pointer(seq: 3)), options: .init(created: Fixtures.now))
        #expect(verified.replacedPointerProblem == nil)
    }

    @Test func thePointerExpiresWithTheArtifactUnlessAnEarlierTimeIsGiven() throws {
        let publisher = ChannelPublisher(channel: "stable", key: Fixtures.key)
        let byDefault = try publisher.publish(Self.artifact, to: .init(), options: .init(created: Fixtures.now))
        #expect(byDefault.pointer.expires == Fixtures.expires)
        let earlier = Fixtures.now.addingTimeInterval(86_400)
        let given = try publisher.publish(
            Self.artifact, to: .init(), options: .init(created: Fixtures.now, expires: earlier))
        #expect(given.pointer.expires == earlier)
        #expect(given.pointer.created == Fixtures.now)
    }

    @Test func aDrawnSaltComesFromTheGenerator() throws {
        /// Every byte 0xAB.
        struct Repeating: RandomNumberGenerator {
            mutating func next() -> UInt64 { 0xABAB_ABAB_ABAB_ABAB }
        }
        var generator = Repeating()
        let publication = try ChannelPublisher(channel: "stable", key: Fixtures.key).publish(
            Self.artifact, to: .init(), options: .init(created: Fixtures.now), using: &generator)
        #expect(publication.pointer.rollout.salt == "abababababababab")
    }
}
