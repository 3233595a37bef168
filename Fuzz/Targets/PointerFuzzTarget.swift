import Foundation
import JunctionArtifact
import JunctionCore

extension FuzzTarget {
    /// Channel pointers — `channels/NAME.json`, what a device polls. The first byte picks a mode.
    ///
    /// Even: the rest is a pointer file, verified with a keyring of two test keys (seed 1,
    /// epoch 0; seed 2, epoch 7). A refusal has one of ``PointerError``'s codes and a message
    /// (`oversize` past ``ChannelPointer/maximumBytes``); what verifies has every field in its
    /// range, the epoch of its key, whole-second dates, and signed again gives the same signed
    /// fields, which verify to the same pointer.
    ///
    /// Odd: fixed-size fields (flags, seq, epoch, dates, length, percent, a change's place,
    /// the artifact's hash) then channel, salt and maybe a hash as text make a pointer —
    /// refused exactly when a field is out of range, `seqTooLarge` only for a seq or epoch
    /// above 2⁵³ − 1 — signed with one of the keys (`unknownKey` when it is not the key the
    /// pointer names, `wrongEpoch` when its epoch is not the pointer's); what is signed
    /// verifies to an equal pointer. Then, as the flags say, one byte is flipped, the end
    /// cut off or a byte appended: every byte of the file is signed or is the signature and
    /// only the canonical form is read, so each change is refused with a code.
    static let pointer = FuzzTarget(
        name: "pointer",
        summary: "channel pointers: only signed files verify, a signed one reads back the same, any change is refused"
    ) { bytes throws(FuzzFailure) in
        var input = FuzzInput(bytes)
        if input.byte() % 2 == 0 {
            try PointerFuzzing.checkRead(input.rest())
        } else {
            try PointerFuzzing.checkMade(&input)
        }
    }
}

/// The keys, codes and checks of the `pointer` target.
private enum PointerFuzzing {
    /// Seed 32 bytes of 1, epoch 0: the artifact tests' key.
    static let key = try! SigningKey(seed: [UInt8](repeating: 1, count: 32))
    /// Seed 32 bytes of 2, epoch 7.
    static let epochKey = try! SigningKey(seed: [UInt8](repeating: 2, count: 32), epoch: 7)
    /// Trusts both, each for its own epoch.
    static let keyring = Keyring([key.publicKey, epochKey.publicKey])

    /// Every code of ``PointerError``.
    static let codes: Set<PointerError.Code> = [
        .oversize, .malformed, .unsupportedFormat, .unsigned, .unknownKey, .badSignature, .seqTooLarge, .wrongEpoch,
    ]

    /// 9999-12-31T23:59:59Z, the last second RFC 3339's four-digit years name.
    static let lastSecond: UInt64 = 253_402_300_799

    // MARK: - Reading fuzzed bytes

    static func checkRead(_ bytes: [UInt8]) throws(FuzzFailure) {
        switch verify(bytes) {
        case .failure(let error):
            try checkRefusal(error, "verify")
            if bytes.count > ChannelPointer.maximumBytes {
                try require(error.code == .oversize, "a pointer past the size cap is oversize", error.description)
            }
        case .success(let pointer):
            try checkAccepted(pointer, bytes: bytes)
        }
    }

    /// What verified: every field in range, and signing it again gives the same signed fields.
    static func checkAccepted(_ pointer: ChannelPointer, bytes: [UInt8]) throws(FuzzFailure) {
        try require(isChannelName(pointer.channel), "a verified channel is a channel name", pointer.channel)
        try require(
            (1...ChannelPointer.maximumSeq).contains(pointer.seq) && pointer.epoch <= ChannelPointer.maximumSeq,
            "a verified seq and epoch are in range", "seq \(pointer.seq), epoch \(pointer.epoch)")
        try require(
            isHex(pointer.artifactSHA256, count: 64) && isHex(pointer.keyID, count: 16),
            "a verified hash and key id are lowercase hex", "\(pointer.artifactSHA256), \(pointer.keyID)")
        try require(pointer.artifactLength >= 1, "a verified length is at least 1", "\(pointer.artifactLength)")
        try require(pointer.expires > pointer.created, "a verified pointer expires after it was made", "")
        try require(
            isWholeSecond(pointer.created) && isWholeSecond(pointer.expires),
            "a verified pointer's dates are whole seconds",
            "\(pointer.created.timeIntervalSince1970), \(pointer.expires.timeIntervalSince1970)")
        let rollout = pointer.rollout
        try require(
            rollout.percent.isFinite && (0...100).contains(rollout.percent) && isSalt(Array(rollout.salt.utf8)),
            "a verified rollout is in range", "\(rollout)")
        guard let signer = [key, epochKey].first(where: { $0.keyID == pointer.keyID }) else {
            throw FuzzFailure("a verified pointer names a key of the keyring", pointer.keyID)
        }
        try require(
            signer.epoch == pointer.epoch, "a verified pointer is of its key's epoch",
            "epoch \(pointer.epoch), key's \(signer.epoch)")
        let again: [UInt8]
        switch sign(pointer, with: signer) {
        case .success(let signed): again = signed
        case .failure(let error): throw FuzzFailure("what verified signs again", error.description)
        }
        // CryptoKit may randomise the signature: the signed fields are what must agree.
        let read = signedFields(bytes)
        try require(
            read != nil && read == signedFields(again), "signing what verified gives the same signed fields",
            String(fuzzBytes: again).debugDescription)
        switch verify(again) {
        case .success(let reread):
            try require(reread == pointer, "what is signed again verifies to the same pointer", "\(reread)")
        case .failure(let error):
            throw FuzzFailure("what is signed again verifies", error.description)
        }
    }

    // MARK: - Making, signing, changing

    static func checkMade(_ input: inout FuzzInput) throws(FuzzFailure) {
        let flags = input.byte()
        let more = input.byte()
        let seqWord = word(&input)
        let epochWord = word(&input)
        let createdWord = word(&input)
        let expiresWord = word(&input)
        let lengthWord = word(&input)
        let percentWord = word(&input)
        let position = Int(input.byte()) << 8 | Int(input.byte())
        let mask = input.byte()
        var digest: [UInt8] = []
        for _ in 0..<32 { digest.append(input.byte()) }
        let channelBytes = input.field()
        let saltBytes = input.field()
        let digestText = more & 0x01 != 0 ? String(fuzzBytes: Array(input.field().prefix(80))) : hex(digest)

        let channel =
            flags & 0x01 != 0
            ? sanitized(channelBytes, alphabet: channelAlphabet, fallback: "stable")
            : String(fuzzBytes: Array(channelBytes.prefix(80)))
        let seq = flags & 0x02 != 0 ? seqWord % ChannelPointer.maximumSeq + 1 : seqWord
        let named = flags & 0x04 != 0 ? epochKey : key
        let epoch: UInt64 =
            switch flags >> 3 & 0x03 {
            case 0: 0
            case 1: named.epoch
            case 2: epochWord
            default: epochWord % (ChannelPointer.maximumSeq + 1)
            }
        let length = more & 0x08 != 0 ? Int(truncatingIfNeeded: lengthWord) : Int(lengthWord & 0xFFFF_FFFF)
        // Whole seconds from 1970 to 9999: what RFC 3339 in the file can say.
        let createdSecond = createdWord % (lastSecond + 1)
        let expiresSecond =
            more & 0x20 != 0
            ? expiresWord % (lastSecond + 1) : min(createdSecond + 1 + expiresWord % 100_000, lastSecond)
        let created = Date(timeIntervalSince1970: Double(createdSecond))
        let expires = Date(timeIntervalSince1970: Double(expiresSecond))
        let pinEmbedded = flags & 0x40 != 0

        var rollout = ChannelPointer.Rollout.everyone
        if flags & 0x20 != 0 {
            let percent =
                more & 0x40 != 0 ? Double(bitPattern: percentWord) : Double(percentWord % 10_001) / 100
            let salt =
                more & 0x10 != 0
                ? sanitized(saltBytes, alphabet: saltAlphabet, fallback: "s")
                : String(fuzzBytes: Array(saltBytes.prefix(80)))
            let valid = percent.isFinite && (0...100).contains(percent) && isSalt(Array(salt.utf8))
            switch makeRollout(percent: percent, salt: salt) {
            case .success(let made):
                try require(valid, "a rollout out of range is refused", "\(percent), \(salt.debugDescription)")
                try require(
                    made.percent == percent && made.salt == salt, "a rollout keeps its fields", "\(made)")
                rollout = made
            case .failure(let error):
                try checkRefusal(error, "rollout")
                try require(!valid, "a rollout in range is made", error.description)
                try require(error.code == .malformed, "a bad rollout is malformed", error.description)
                return
            }
        }

        let expectedCode = initializerCode(
            channel: channel, seq: seq, epoch: epoch, sha256: digestText, length: length,
            datesInOrder: expiresSecond > createdSecond)
        let pointer: ChannelPointer
        let madeResult = make(
            channel: channel, seq: seq, epoch: epoch, sha256: digestText, length: length, created: created,
            expires: expires, rollout: rollout, pinEmbedded: pinEmbedded, keyID: named.keyID)
        switch madeResult {
        case .success(let made):
            try require(expectedCode == nil, "a pointer with a field out of range is refused", "\(made)")
            try require(
                made.channel == channel && made.seq == seq && made.epoch == epoch && made.artifactSHA256 == digestText
                    && made.artifactLength == length && made.created == created && made.expires == expires
                    && made.rollout == rollout && made.pinEmbedded == pinEmbedded && made.keyID == named.keyID,
                "a pointer keeps its fields", "\(made)")
            pointer = made
        case .failure(let error):
            try checkRefusal(error, "init")
            try require(
                error.code == expectedCode, "a pointer is refused exactly for the first field out of range",
                "\(error), expected \(expectedCode.map(\.description) ?? "none")")
            return
        }

        let signer = flags & 0x80 != 0 ? (named.keyID == key.keyID ? epochKey : key) : named
        let expectedSigning = signingCode(pointer, with: signer)
        let signed: [UInt8]
        switch sign(pointer, with: signer) {
        case .success(let bytes):
            try require(expectedSigning == nil, "a pointer signs only with its own key, of its epoch", "")
            signed = bytes
        case .failure(let error):
            try checkRefusal(error, "sign")
            try require(
                error.code == expectedSigning, "signing is refused for the wrong key or epoch",
                "\(error), expected \(expectedSigning.map(\.description) ?? "none")")
            return
        }
        try require(signed.count <= ChannelPointer.maximumBytes, "a signed pointer is within the size cap", "")
        switch verify(signed) {
        case .success(let read):
            try require(read == pointer, "a signed pointer verifies to itself", "\(read) ≠ \(pointer)")
            try checkAccepted(read, bytes: signed)
        case .failure(let error):
            throw FuzzFailure("a signed pointer verifies", "\(error) for \(String(fuzzBytes: signed).debugDescription)")
        }

        var changed = signed
        switch more >> 1 & 0x03 {
        case 0:
            return
        case 1:
            changed[position % changed.count] ^= mask == 0 ? 0x01 : mask
        case 2:
            changed.removeSubrange((position % changed.count)...)
        default:
            changed.append(mask)
        }
        switch verify(changed) {
        case .success(let read):
            throw FuzzFailure(
                "a changed pointer file is refused", "\(String(fuzzBytes: changed).debugDescription) read as \(read)")
        case .failure(let error):
            try checkRefusal(error, "verify a changed file")
        }
    }

    // MARK: - Checks

    /// The code the initializer's checks give, in their order; nil when every field is in range.
    static func initializerCode(
        channel: String, seq: UInt64, epoch: UInt64, sha256: String, length: Int, datesInOrder: Bool
    ) -> PointerError.Code? {
        if !isChannelName(channel) || seq < 1 { return PointerError.Code.malformed }
        if seq > ChannelPointer.maximumSeq || epoch > ChannelPointer.maximumSeq { return PointerError.Code.seqTooLarge }
        if !isHex(sha256, count: 64) || length < 1 || !datesInOrder { return PointerError.Code.malformed }
        return nil
    }

    /// The code signing `pointer` with `signer` is refused with; nil when it signs.
    static func signingCode(_ pointer: ChannelPointer, with signer: SigningKey) -> PointerError.Code? {
        if signer.keyID != pointer.keyID { return PointerError.Code.unknownKey }
        if signer.epoch != pointer.epoch { return PointerError.Code.wrongEpoch }
        return nil
    }

    static func checkRefusal(_ error: PointerError, _ what: String) throws(FuzzFailure) {
        try require(codes.contains(error.code), "\(what): a refusal has one of PointerError's codes", error.description)
        try require(!error.message.isEmpty, "\(what): a refusal says why", "\(error.code) with no message")
    }

    static let channelAlphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789._-".utf8)
    static let saltAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-".utf8)

    /// 1 to 64 of `a-z 0-9 . _ -`, the first a letter or digit.
    static func isChannelName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 64, channelAlphabet.prefix(36).contains(first) else {
            return false
        }
        return bytes.allSatisfy { channelAlphabet.contains($0) }
    }

    /// 1 to 64 of `A-Z a-z 0-9 . _ -`.
    static func isSalt(_ bytes: [UInt8]) -> Bool {
        (1...64).contains(bytes.count) && bytes.allSatisfy { saltAlphabet.contains($0) }
    }

    static func isHex(_ text: String, count: Int) -> Bool {
        text.utf8.count == count && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    static func isWholeSecond(_ date: Date) -> Bool {
        date.timeIntervalSince1970 == date.timeIntervalSince1970.rounded(.down)
    }

    /// `bytes` mapped into `alphabet`, at most 64, the first a letter or digit when the
    /// alphabet starts with them; `fallback` when there are none.
    static func sanitized(_ bytes: [UInt8], alphabet: [UInt8], fallback: String) -> String {
        guard !bytes.isEmpty else { return fallback }
        let mapped = bytes.prefix(64).enumerated().map { index, byte in
            index == 0 ? alphabet[Int(byte) % 36] : alphabet[Int(byte) % alphabet.count]
        }
        return String(decoding: mapped, as: UTF8.self)
    }

    /// The `signed` object of a pointer file, or nil.
    static func signedFields(_ bytes: [UInt8]) -> RuleValue? {
        guard case .table(let wrapper)? = try? CanonicalJSON.decode(bytes) else { return nil }
        return wrapper["signed"]
    }

    /// Eight bytes, big-endian.
    static func word(_ input: inout FuzzInput) -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(input.byte()) }
        return value
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }

    // MARK: - Calls as results

    static func verify(_ bytes: [UInt8]) -> Result<ChannelPointer, PointerError> {
        do throws(PointerError) {
            return .success(try ChannelPointer(verifying: bytes, keyring: keyring))
        } catch {
            return .failure(error)
        }
    }

    static func sign(_ pointer: ChannelPointer, with key: SigningKey) -> Result<[UInt8], PointerError> {
        do throws(PointerError) {
            return .success(try pointer.signed(with: key))
        } catch {
            return .failure(error)
        }
    }

    static func makeRollout(percent: Double, salt: String) -> Result<ChannelPointer.Rollout, PointerError> {
        do throws(PointerError) {
            return .success(try ChannelPointer.Rollout(percent: percent, salt: salt))
        } catch {
            return .failure(error)
        }
    }

    static func make(
        channel: String, seq: UInt64, epoch: UInt64, sha256: String, length: Int, created: Date, expires: Date,
        rollout: ChannelPointer.Rollout, pinEmbedded: Bool, keyID: String
    ) -> Result<ChannelPointer, PointerError> {
        do throws(PointerError) {
            return .success(
                try ChannelPointer(
                    channel: channel, seq: seq, epoch: epoch, artifactSHA256: sha256, artifactLength: length,
                    created: created, expires: expires, rollout: rollout, pinEmbedded: pinEmbedded, keyID: keyID))
        } catch {
            return .failure(error)
        }
    }
}
