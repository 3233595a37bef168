import Foundation
import Junction
import JunctionShipping
import JunctionArtifact
import Testing

/// Issue 27, item 5: a pointer of seq 9223372036854775807 stranded a channel — devices took
/// it and could take nothing after it. Now a seq above 2⁵³ − 1 is refused, and a channel
/// whose devices hold one comes back through a key of a new seq epoch; what an attacker
/// with the old key, or with none, can send is refused.
@Suite struct SeqEpochAcceptanceTests {
    /// The key of epoch 1, trusted next to the fixture's key of epoch 0.
    static let epochOneKey = try! SigningKey(seed: Array(repeating: 11, count: 32), epoch: 1)
    static let acceptance: UpdateAcceptance = {
        var policy = ShippingFixture.policy
        policy.keyring = Keyring([ShippingFixture.key.publicKey, epochOneKey.publicKey])
        return UpdateAcceptance(policy: policy)
    }()
    static let artifact = DeviceFaultCases.validArtifact
    static let hash = ShippingFixture.hash(artifact)
    static let maximum = ChannelPointer.maximumSeq

    /// The device, stranded: it took the largest seq there is in epoch 0.
    static let stranded = UpdateIdentity(seq: maximum, artifactSHA256: String(repeating: "5", count: 64))
    /// The device, recovered: it took seq 1 of epoch 1.
    static let recovered = UpdateIdentity(epoch: 1, seq: 1, artifactSHA256: hash)

    /// The signed text of a pointer of `artifact` whatever `seq` and `epoch` say.
    static func forged(seq: String, epoch: String?, key: SigningKey) -> [UInt8] {
        var text = ShippingFixture.signedText(of: ShippingFixture.pointer(for: artifact, seq: 6, key: key))
        text = text.replacingOccurrences(of: #""seq":6"#, with: #""seq":\#(seq)"#)
        text = text.replacingOccurrences(of: #","epoch":\#(key.epoch)"#, with: "")
        if let epoch {
            text = text.replacingOccurrences(of: #","expires""#, with: #","epoch":\#(epoch),"expires""#)
        }
        return ShippingFixture.pointer(signing: text, with: key)
    }

    static let cases: [(String, [UInt8], UpdateIdentity?, String)] = [
        (
            "seq 9223372036854775807 (the typo)",
            forged(seq: "9223372036854775807", epoch: nil, key: ShippingFixture.key),
            nil, "pointerSeqTooLarge"
        ),
        ("seq 2^53", forged(seq: "9007199254740992", epoch: nil, key: ShippingFixture.key), nil, "pointerSeqTooLarge"),
        ("seq 2^53 - 1, the largest", ShippingFixture.pointer(for: artifact, seq: maximum), nil, "fetch"),
        (
            "epoch 0 past the stranded seq: none is", ShippingFixture.pointer(for: artifact, seq: maximum), stranded,
            "conflictingSeq"
        ),
        ("epoch 0 below the stranded seq", ShippingFixture.pointer(for: artifact, seq: 6), stranded, "staleSeq"),
        (
            "the recovery: epoch 1, seq 1", ShippingFixture.pointer(for: artifact, seq: 1, key: epochOneKey), stranded,
            "fetch"
        ),
        (
            "the old key claiming epoch 1", forged(seq: "1", epoch: "1", key: ShippingFixture.key), stranded,
            "pointerWrongEpoch"
        ),
        (
            "the old key claiming epoch 2 after the recovery", forged(seq: "1", epoch: "2", key: ShippingFixture.key),
            recovered, "pointerWrongEpoch"
        ),
        (
            "the new key claiming epoch 2", forged(seq: "1", epoch: "2", key: epochOneKey), recovered,
            "pointerWrongEpoch"
        ),
        (
            "the new key signing for epoch 0", forged(seq: "9", epoch: nil, key: epochOneKey), stranded,
            "pointerWrongEpoch"
        ),
        (
            "no key: an untrusted key claiming epoch 9",
            forged(seq: "1", epoch: "9", key: ShippingFixture.otherKey), stranded, "pointerUnknownKey"
        ),
        (
            "epoch 2^53", forged(seq: "1", epoch: "9007199254740992", key: epochOneKey), stranded,
            "pointerSeqTooLarge"
        ),
        (
            "an epoch-0 pointer replayed after the recovery", ShippingFixture.pointer(for: artifact, seq: maximum),
            recovered, "staleEpoch"
        ),
        (
            "the recovery pointer again", ShippingFixture.pointer(for: artifact, seq: 1, key: epochOneKey), recovered,
            "unchanged"
        ),
        ("epoch 1 goes on", ShippingFixture.pointer(for: artifact, seq: 2, key: epochOneKey), recovered, "fetch"),
    ]

    @Test(arguments: cases)
    func checksEpochThenSeq(_ name: String, _ pointer: [UInt8], _ accepted: UpdateIdentity?, _ expected: String) {
        let outcome: String
        do {
            switch try Self.acceptance.checkPointer(pointer, accepted: accepted, failed: [], at: ShippingFixture.now) {
            case .fetch: outcome = "fetch"
            case .unchanged: outcome = "unchanged"
            case .pinEmbedded: outcome = "pinEmbedded"
            case .notInRollout: outcome = "notInRollout"
            }
        } catch {
            outcome = "\(error.code)"
        }
        #expect(outcome == expected, "\(name)")
    }

    @Test func theRecoveryIsTakenWholeAndItsIdentityCarriesTheEpoch() throws {
        let pointer = ShippingFixture.pointer(for: Self.artifact, seq: 1, key: Self.epochOneKey)
        guard
            case .fetch(let verified) = try Self.acceptance.checkPointer(
                pointer, accepted: Self.stranded, failed: [], at: ShippingFixture.now)
        else {
            Issue.record("the recovery was not fetched")
            return
        }
        let update = try Self.acceptance.acceptArtifact(Self.artifact, for: verified, at: ShippingFixture.now)
        #expect(update.identity == Self.recovered)
        #expect("\(update.identity)".hasPrefix("epoch 1 seq 1 (sha256 "))
    }

    @Test func aReplayedOldEpochSaysWhatItIsAndWhatToDo() {
        let pointer = ShippingFixture.pointer(for: Self.artifact, seq: 7)
        #expect(throws: UpdateRefusal.self) {
            try Self.acceptance.checkPointer(pointer, accepted: Self.recovered, failed: [], at: ShippingFixture.now)
        }
        do {
            _ = try Self.acceptance.checkPointer(pointer, accepted: Self.recovered, failed: [], at: ShippingFixture.now)
        } catch {
            #expect(
                error.message
                    == "the pointer is of epoch 0, lower than epoch 1 of \(Self.recovered), the update last accepted: a pointer of an epoch the channel has left, replayed or still served; publish with the key of epoch 1 or later"
            )
        }
    }
}
