import Foundation
import JunctionArtifact
import JunctionCore
import Testing

@Suite struct ChannelPointerTests {
    static let sha = String(repeating: "ab", count: 32)

    static func pointer(
        channel: String = "stable", seq: UInt64 = 7, rollout: ChannelPointer.Rollout = .everyone,
        pinEmbedded: Bool = false, key: SigningKey = Fixtures.key
    ) -> ChannelPointer {
        try! ChannelPointer(
            channel: channel, seq: seq, artifactSHA256: sha, artifactLength: 4_096, created: Fixtures.created,
            expires: Fixtures.expires, rollout: rollout, pinEmbedded: pinEmbedded, keyID: key.keyID)
    }

    static let file = try! pointer().signed(with: Fixtures.key)

    /// The refusal's text, or `nil` when `bytes` verify.
    static func refusal(_ bytes: [UInt8], keyring: Keyring = Fixtures.keyring) -> String? {
        do {
            _ = try ChannelPointer(verifying: bytes, keyring: keyring)
            return nil
        } catch { return error.description }
    }

    /// A file whose signed fields are `fields`, signed by `key` over the prefix and their
    /// canonical bytes — as a hostile or newer publisher could write.
    static func signing(_ fields: [String: RuleValue], with key: SigningKey = Fixtures.key) -> [UInt8] {
        let signed = try! CanonicalJSON.encode(.table(fields))
        let signature = key.signature(for: ArraySlice(ChannelPointer.signaturePrefix + signed))
        return try! CanonicalJSON.encode(
            .table(["signature": .string(Data(signature).base64EncodedString()), "signed": .table(fields)]))
    }

    static var fields: [String: RuleValue] {
        guard case .table(let wrapper) = try! CanonicalJSON.decode(file), case .table(let signed)? = wrapper["signed"]
        else { fatalError("the fixture pointer is an object") }
        return signed
    }

    static func changed(_ change: (inout [String: RuleValue]) -> Void) -> [String: RuleValue] {
        var copy = fields
        change(&copy)
        return copy
    }

    @Test func readsBackWhatItSigned() throws {
        let cases: [ChannelPointer] = [
            Self.pointer(),
            Self.pointer(channel: "beta-2.x_y", seq: ChannelPointer.maximumSeq, pinEmbedded: true),
            Self.pointer(rollout: try .init(percent: 12.5, salt: "Q7-x.y_z")),
            Self.pointer(rollout: try .init(percent: 0, salt: "s")),
        ]
        for pointer in cases {
            let bytes = try pointer.signed(with: Fixtures.key)
            #expect(try ChannelPointer(verifying: bytes, keyring: Fixtures.keyring) == pointer)
        }
    }

    @Test func writesOneCanonicalLineWithEveryFieldSigned() {
        let text = String(decoding: Self.file, as: UTF8.self)
        let signed =
            #"{"artifact":{"length":4096,"sha256":"\#(Self.sha)"},"channel":"stable","created":"2026-05-31T12:00:00Z","expires":"2026-07-01T00:00:00Z","format":1,"key_id":"\#(Fixtures.key.keyID)","rollout":{"percent":100,"salt":"all"},"seq":7}"#
        #expect(text.hasPrefix(#"{"signature":""#))
        #expect(text.hasSuffix(#","signed":"# + signed + "}"))
    }

    @Test func pinEmbeddedIsADirective() throws {
        let text = String(decoding: try Self.pointer(pinEmbedded: true).signed(with: Fixtures.key), as: UTF8.self)
        #expect(text.contains(#""directives":{"pin_embedded":true}"#))
    }

    static let refusals: [(String, [UInt8], String)] = [
        (
            "oversize", Array(repeating: 0x20, count: ChannelPointer.maximumBytes + 1),
            "oversize: the pointer is 16385 bytes; a pointer is at most 16384"
        ),
        ("not JSON", Array("seq=7".utf8), "malformed: not JSON: byte 0: \"s\" cannot start a value"),
        (
            "whitespace", Array(" ".utf8) + file,
            "malformed: not in canonical form (sorted keys, no whitespace), so not as it was signed"
        ),
        (
            "an array", Array("[]".utf8),
            "malformed: expected an object with \"signature\" and \"signed\""
        ),
        (
            "extra member",
            try! CanonicalJSON.encode(
                .table(["signed": .table(fields), "signature": .string("x"), "url": .string("")])),
            "malformed: unknown member \"url\"; a pointer has signature and signed"
        ),
        (
            "unsigned", try! CanonicalJSON.encode(.table(["signed": .table(fields)])),
            "unsigned: the pointer has no signature; sign it with junction bundle publish"
        ),
        (
            "empty signature", try! CanonicalJSON.encode(.table(["signature": .string(""), "signed": .table(fields)])),
            "unsigned: the pointer has no signature; sign it with junction bundle publish"
        ),
        (
            "unknown key",
            signing(fields.merging(["key_id": .string(Fixtures.otherKey.keyID)]) { $1 }, with: Fixtures.otherKey),
            "unknownKey: the pointer is signed by key \(Fixtures.otherKey.keyID), which is not in the keyring (\(Fixtures.key.keyID))"
        ),
        (
            "signed by another key under ours", signing(fields, with: Fixtures.otherKey),
            "badSignature: the signature does not verify with key \(Fixtures.key.keyID)"
        ),
        (
            "short signature",
            try! CanonicalJSON.encode(.table(["signature": .string("AAAA"), "signed": .table(fields)])),
            "badSignature: the signature is not 64 bytes in base64"
        ),
        (
            "seq raised after signing",
            {
                var wrapper = try! CanonicalJSON.decode(file)
                if case .table(var outer) = wrapper, case .table(var signed)? = outer["signed"] {
                    signed["seq"] = .int(8)
                    outer["signed"] = .table(signed)
                    wrapper = .table(outer)
                }
                return try! CanonicalJSON.encode(wrapper)
            }(),
            "badSignature: the signature does not verify with key \(Fixtures.key.keyID)"
        ),
        (
            "format 2", signing(changed { $0["format"] = .int(2) }),
            "unsupportedFormat: the pointer's format is 2; this reader knows format 1"
        ),
        (
            "no key id", signing(changed { $0["key_id"] = nil }),
            "malformed: signed.key_id: missing or not 16 lowercase hex digits"
        ),
        (
            "unknown field", signing(changed { $0["mirror"] = .string("http://evil") }),
            "malformed: signed.mirror: unknown member; signed has artifact, channel, created, directives, epoch, expires, format, key_id, rollout, seq"
        ),
        (
            "seq 0", signing(changed { $0["seq"] = .int(0) }),
            "malformed: signed.seq: missing or not a whole number from 1"
        ),
        (
            "seq negative", signing(changed { $0["seq"] = .int(-3) }),
            "malformed: signed.seq: missing or not a whole number from 1"
        ),
        (
            "seq 2^53", signing(changed { $0["seq"] = .int(9_007_199_254_740_992) }),
            "seqTooLarge: seq: 9007199254740992 is above 9007199254740991 (2^53 - 1), the largest a pointer carries: a device that took it could never accept another pointer in epoch 0"
        ),
        (
            "seq Int64.max (issue 27, item 5)", signing(changed { $0["seq"] = .int(Int64.max) }),
            "seqTooLarge: seq: 9223372036854775807 is above 9007199254740991 (2^53 - 1), the largest a pointer carries: a device that took it could never accept another pointer in epoch 0"
        ),
        (
            "epoch 0 written", signing(changed { $0["epoch"] = .int(0) }),
            "malformed: signed.epoch: not a whole number from 1"
        ),
        (
            "epoch 1 signed by a key of epoch 0", signing(changed { $0["epoch"] = .int(1) }),
            "wrongEpoch: the pointer is of epoch 1, but key \(Fixtures.key.keyID) is trusted for epoch 0: a key signs pointers of its own epoch only; publish with the key made for epoch 1, or trust it for that epoch"
        ),
        (
            "epoch 2^53", signing(changed { $0["epoch"] = .int(9_007_199_254_740_992) }),
            "seqTooLarge: epoch: 9007199254740992 is above 9007199254740991 (2^53 - 1), the largest a pointer carries"
        ),
        (
            "uppercase hash",
            signing(changed { $0["artifact"] = .table(["length": 1, "sha256": .string(sha.uppercased())]) }),
            "malformed: artifact.sha256: not 64 lowercase hex digits"
        ),
        (
            "no length", signing(changed { $0["artifact"] = .table(["sha256": .string(sha)]) }),
            "malformed: signed.artifact: missing \"length\""
        ),
        (
            "zero length", signing(changed { $0["artifact"] = .table(["length": 0, "sha256": .string(sha)]) }),
            "malformed: artifact.length: 0 is not at least 1"
        ),
        (
            "expires before created", signing(changed { $0["expires"] = .string("2026-05-01T00:00:00Z") }),
            "malformed: expires: 2026-05-01T00:00:00Z is not after created 2026-05-31T12:00:00Z"
        ),
        (
            "local time", signing(changed { $0["created"] = .string("2026-05-31T12:00:00+02:00") }),
            "malformed: signed.created: \"2026-05-31T12:00:00+02:00\" is not a UTC time like 2026-11-23T09:30:00Z"
        ),
        (
            "bad channel", signing(changed { $0["channel"] = .string("../stable") }),
            "malformed: channel: \"../stable\" is not a channel name (1 to 64 of a-z 0-9 . _ -, starting with a letter or digit)"
        ),
        (
            "percent 101", signing(changed { $0["rollout"] = .table(["percent": 101, "salt": "s"]) }),
            "malformed: rollout.percent: 101.0 is not from 0 to 100"
        ),
        (
            "percent as text", signing(changed { $0["rollout"] = .table(["percent": "50", "salt": "s"]) }),
            "malformed: signed.rollout.percent: expected a number, found text \"50\""
        ),
        (
            "salt with a slash", signing(changed { $0["rollout"] = .table(["percent": 5, "salt": "a/b"]) }),
            "malformed: rollout.salt: not 1 to 64 of A-Z a-z 0-9 . _ -"
        ),
        (
            "directive unknown", signing(changed { $0["directives"] = .table(["wipe": true]) }),
            "malformed: signed.directives.wipe: unknown member; signed.directives has pin_embedded"
        ),
    ]

    @Test(arguments: refusals)
    func refuses(_ name: String, _ bytes: [UInt8], _ expected: String) {
        #expect(Self.refusal(bytes) == expected, "\(name)")
    }

    /// However the bytes are cut or a byte is changed, the pointer is refused, by name.
    @Test func refusesEveryFlipAndTruncation() {
        let file = Self.file
        var codes: [String: Int] = [:]
        for index in file.indices {
            for flip: UInt8 in [0x01, 0x80] {
                var bytes = file
                bytes[index] ^= flip
                let refusal = Self.refusal(bytes)
                #expect(refusal != nil, "flip \(flip) at \(index) was accepted")
                codes[String(refusal?.prefix { $0 != ":" } ?? "accepted"), default: 0] += 1
            }
        }
        for length in 0..<file.count {
            #expect(Self.refusal(Array(file[..<length])) != nil, "truncation to \(length) was accepted")
        }
        #expect(Set(codes.keys).isSubset(of: ["malformed", "badSignature", "unknownKey", "unsigned"]), "\(codes)")
        #expect(codes["badSignature", default: 0] > 100)
    }

    @Test func signingWithAnotherKeyThanTheNamedOneIsRefused() {
        #expect(throws: PointerError.self) { try Self.pointer().signed(with: Fixtures.otherKey) }
        do {
            _ = try Self.pointer().signed(with: Fixtures.otherKey)
        } catch {
            #expect(
                error.description
                    == "unknownKey: the pointer names key \(Fixtures.key.keyID), but is being signed with key \(Fixtures.otherKey.keyID)"
            )
        }
    }

    /// Issue 27, item 5: `--seq 9223372036854775807` was signed, and devices that took it
    /// could take nothing after it. Above 2⁵³ − 1 a pointer cannot be made, so not signed.
    @Test func aSeqAboveTwoToThe53CannotBeMadeNorSigned() {
        for seq in [ChannelPointer.maximumSeq + 1, UInt64(Int64.max), UInt64.max] {
            #expect(throws: PointerError.self) {
                try ChannelPointer(
                    channel: "stable", seq: seq, artifactSHA256: Self.sha, artifactLength: 1, created: Fixtures.created,
                    expires: Fixtures.expires, keyID: Fixtures.key.keyID)
            }
            do {
                _ = try ChannelPointer(
                    channel: "stable", seq: seq, artifactSHA256: Self.sha, artifactLength: 1, created: Fixtures.created,
                    expires: Fixtures.expires, keyID: Fixtures.key.keyID)
            } catch { #expect(error.code == .seqTooLarge) }
        }
    }

    /// A key signs the pointers of its own epoch, and a keyring trusts each key for its own:
    /// a pointer of epoch 1 reads back with the key made for epoch 1, and is refused
    /// `wrongEpoch` when signed with, or checked against, another epoch.
    @Test func aKeySignsAndIsTrustedForItsOwnEpochOnly() throws {
        let epochOne = try SigningKey(seed: [UInt8](repeating: 3, count: 32), epoch: 1)
        let pointer = try ChannelPointer(
            channel: "stable", seq: 1, epoch: 1, artifactSHA256: Self.sha, artifactLength: 9, created: Fixtures.created,
            expires: Fixtures.expires, keyID: epochOne.keyID)
        let bytes = try pointer.signed(with: epochOne)
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""epoch":1,"#))
        #expect(try ChannelPointer(verifying: bytes, keyring: Keyring([epochOne.publicKey])) == pointer)

        // The same key trusted for epoch 0 (or 2): not its epoch.
        for epoch: UInt64 in [0, 2] {
            let trusted = try VerificationKey(rawRepresentation: epochOne.publicKey.rawRepresentation, epoch: epoch)
            #expect(
                Self.refusal(bytes, keyring: Keyring([trusted]))?.hasPrefix(
                    "wrongEpoch: the pointer is of epoch 1, but key \(epochOne.keyID) is trusted for epoch \(epoch)")
                    == true)
        }
        // Signing a pointer of epoch 0 with the key of epoch 1.
        let epochZero = try ChannelPointer(
            channel: "stable", seq: 1, artifactSHA256: Self.sha, artifactLength: 9, created: Fixtures.created,
            expires: Fixtures.expires, keyID: epochOne.keyID)
        #expect(throws: PointerError.self) { try epochZero.signed(with: epochOne) }
        do { _ = try epochZero.signed(with: epochOne) } catch {
            #expect(
                error.description
                    == "wrongEpoch: the pointer is of epoch 0, but key \(epochOne.keyID) signs epoch 1: a key signs pointers of its own epoch only"
            )
        }
        // Epoch 0 is not written: pointers of keys without an epoch are what they always were.
        #expect(!String(decoding: Self.file, as: UTF8.self).contains("epoch"))
    }

    @Test(arguments: [
        ("stable", true), ("beta-2", true), ("a", true), ("0.x_y-z", true), (String(repeating: "a", count: 64), true),
        ("", false), (String(repeating: "a", count: 65), false), ("Stable", false), ("-x", false), (".x", false),
        ("a/b", false), ("a b", false), ("é", false),
    ])
    func channelNames(_ name: String, _ valid: Bool) {
        #expect(ChannelPointer.isChannelName(name) == valid)
    }
}
