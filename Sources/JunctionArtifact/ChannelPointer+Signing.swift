import Foundation
public import JunctionCore

extension ChannelPointer {
    /// The pointer file, signed with `key`: the bytes to write as `channels/NAME.json`.
    /// - Parameter key: The key whose id the pointer names.
    /// - Returns: The canonical JSON of the signature and the signed fields.
    /// - Throws: ``PointerError``: `unknownKey` when `key` is not the key the pointer names,
    ///   `wrongEpoch` when the pointer's epoch is not the key's.
    public func signed(with key: SigningKey) throws(PointerError) -> [UInt8] {
        guard key.keyID == keyID else {
            throw PointerError(.unknownKey, "the pointer names key \(keyID), but is being signed with key \(key.keyID)")
        }
        guard key.epoch == epoch else {
            throw PointerError(
                .wrongEpoch,
                "the pointer is of epoch \(epoch), but key \(keyID) signs epoch \(key.epoch): a key signs pointers "
                    + "of its own epoch only")
        }
        let signed = signedFields
        // The fields are text, integers, finite numbers and booleans: always encodable.
        let signedBytes = try! CanonicalJSON.encode(signed)
        let signature = key.signature(for: ArraySlice(Self.signaturePrefix + signedBytes))
        return try! CanonicalJSON.encode(
            .table(["signature": .string(Data(signature).base64EncodedString()), "signed": signed]))
    }

    /// Verifies `bytes` as a pointer file signed by a key of `keyring`.
    ///
    /// In order: the size, strict JSON in exactly its canonical form, a signature present,
    /// the key the signed fields name in `keyring`, the signature, the format version, and
    /// then every field (a `seq` or `epoch` above ``maximumSeq`` is `seqTooLarge`), last the
    /// epoch against the one the key is trusted for (`wrongEpoch`). Nothing signed is
    /// interpreted before the signature verifies, except the key id that says which key to
    /// check it with. Freshness — `seq`, `expires`,
    /// `created` — is the device's to judge against what it knows; this checks authenticity.
    /// - Parameters:
    ///   - bytes: The pointer file.
    ///   - keyring: The keys to trust.
    /// - Throws: ``PointerError`` with the reason.
    public init(verifying bytes: [UInt8], keyring: Keyring) throws(PointerError) {
        try self.init(verifying: bytes, keyring: keyring, signatureVerifiedBefore: false)
    }

    /// ``init(verifying:keyring:)``; with `signatureVerifiedBefore`, every check but the
    /// signature's and the canonical form's (both were made on these very bytes) — for bytes
    /// whose SHA-256 the caller has bound, under a secret of its own, to a verification it
    /// made before with this keyring (a device's acceptance stamp).
    package init(verifying bytes: [UInt8], keyring: Keyring, signatureVerifiedBefore: Bool) throws(PointerError) {
        guard bytes.count <= Self.maximumBytes else {
            throw PointerError(
                .oversize, "the pointer is \(bytes.count) bytes; a pointer is at most \(Self.maximumBytes)")
        }
        let limits = CanonicalJSONLimits(
            maximumBytes: Self.maximumBytes, maximumDepth: 4, maximumStringBytes: 1_024, maximumNumberLength: 32)
        let document: RuleValue
        do { document = try CanonicalJSON.decode(bytes, file: "pointer", limits: limits) } catch {
            throw PointerError(.malformed, "not JSON: \(error.place): \(error.message)")
        }
        guard signatureVerifiedBefore || (try? CanonicalJSON.encode(document)) == bytes else {
            throw PointerError(
                .malformed, "not in canonical form (sorted keys, no whitespace), so not as it was signed")
        }
        guard case .table(let wrapper) = document else {
            throw PointerError(.malformed, "expected an object with \"signature\" and \"signed\"")
        }
        if let unknown = wrapper.keys.filter({ $0 != "signature" && $0 != "signed" }).min() {
            throw PointerError(
                .malformed, "unknown member \"\(unknown.prefix(64))\"; a pointer has signature and signed")
        }
        guard case .table(let signed) = wrapper["signed"] else {
            throw PointerError(.malformed, "\"signed\" is missing or not an object")
        }
        guard case .string(let signatureText) = wrapper["signature"], !signatureText.isEmpty else {
            throw PointerError(.unsigned, "the pointer has no signature; sign it with junction bundle publish")
        }
        guard case .string(let keyID) = signed["key_id"], Hex.isLowercase(keyID, count: 16) else {
            throw PointerError(.malformed, "signed.key_id: missing or not 16 lowercase hex digits")
        }
        guard let key = keyring.key(id: keyID) else {
            throw PointerError(
                .unknownKey,
                "the pointer is signed by key \(keyID), which is not in the keyring (\(keyring.keyIDs.joined(separator: ", ")))"
            )
        }
        guard let signature = Data(base64Encoded: signatureText), signature.count == 64,
            signature.base64EncodedString() == signatureText
        else {
            throw PointerError(.badSignature, "the signature is not 64 bytes in base64")
        }
        let signedBytes = try! CanonicalJSON.encode(.table(signed))
        guard
            signatureVerifiedBefore
                || key.isValidSignature(ArraySlice(signature), for: ArraySlice(Self.signaturePrefix + signedBytes))
        else {
            throw PointerError(.badSignature, "the signature does not verify with key \(keyID)")
        }
        let pointer = try Self(signedFields: signed)
        guard pointer.epoch == key.epoch else {
            throw PointerError(
                .wrongEpoch,
                "the pointer is of epoch \(pointer.epoch), but key \(keyID) is trusted for epoch \(key.epoch): a key "
                    + "signs pointers of its own epoch only; publish with the key made for epoch \(pointer.epoch), "
                    + "or trust it for that epoch")
        }
        self = pointer
    }

    /// The pointer whose signed fields are `fields`.
    private init(signedFields fields: [String: RuleValue]) throws(PointerError) {
        func malformed(_ error: CanonicalJSONError) -> PointerError {
            PointerError(.malformed, "\(error.place): \(error.message)")
        }
        guard case .int(let format) = fields["format"] else {
            throw PointerError(.malformed, "signed.format: missing or not an integer")
        }
        guard format == Self.format else {
            throw PointerError(
                .unsupportedFormat, "the pointer's format is \(format); this reader knows format \(Self.format)")
        }
        do {
            var object = try CanonicalJSONObject(.table(fields), at: "signed", file: "pointer", what: "a pointer")
            _ = try object.required("format")
            guard var artifact = try object.object("artifact", what: "the artifact") else {
                throw object.error(at: "signed", "missing \"artifact\"")
            }
            guard let length = try artifact.int("length") else {
                throw artifact.error(at: "signed.artifact", "missing \"length\"")
            }
            let sha256 = try artifact.requiredString("sha256")
            try artifact.finish()
            let channel = try object.requiredString("channel")
            let created = try Self.date(&object, "created")
            var pinEmbedded = false
            if var directives = try object.object("directives", what: "the directives") {
                pinEmbedded = try directives.bool("pin_embedded") ?? false
                try directives.finish()
            }
            let expires = try Self.date(&object, "expires")
            let keyID = try object.requiredString("key_id")
            var rollout = Rollout.everyone
            if var fields = try object.object("rollout", what: "the rollout") {
                let percent: Double
                switch try fields.required("percent") {
                case .int(let number): percent = Double(number)
                case .double(let number): percent = number
                case let other:
                    throw CanonicalJSONObject.mismatch(
                        other, expected: "a number", at: "signed.rollout.percent", file: "pointer")
                }
                rollout = try Rollout(percent: percent, salt: fields.requiredString("salt"))
                try fields.finish()
            }
            // Written only when above 0, so one pointer has one text.
            let epoch = try object.int("epoch")
            if let epoch, epoch < 1 { throw object.error("epoch", "not a whole number from 1") }
            guard let seq = try object.int("seq"), seq >= 1 else {
                throw object.error("seq", "missing or not a whole number from 1")
            }
            try object.finish()
            try self.init(
                channel: channel, seq: UInt64(seq), epoch: UInt64(epoch ?? 0), artifactSHA256: sha256,
                artifactLength: length, created: created,
                expires: expires, rollout: rollout, pinEmbedded: pinEmbedded, keyID: keyID)
        } catch let error as CanonicalJSONError {
            throw malformed(error)
        } catch let error as PointerError {
            throw error
        } catch {
            throw PointerError(.malformed, "\(error)")
        }
    }

    /// The fields under the signature, as canonical JSON values.
    private var signedFields: RuleValue {
        let percent: RuleValue =
            rollout.percent == rollout.percent.rounded() ? .int(Int64(rollout.percent)) : .double(rollout.percent)
        var fields: [String: RuleValue] = [
            "artifact": .table(["length": .int(Int64(artifactLength)), "sha256": .string(artifactSHA256)]),
            "channel": .string(channel),
            "created": .string(RFC3339.format(created)),
            "expires": .string(RFC3339.format(expires)),
            "format": .int(Int64(Self.format)),
            "key_id": .string(keyID),
            "rollout": .table(["percent": percent, "salt": .string(rollout.salt)]),
            "seq": .int(Int64(seq)),
        ]
        if epoch > 0 { fields["epoch"] = .int(Int64(epoch)) }
        if pinEmbedded { fields["directives"] = .table(["pin_embedded": .bool(true)]) }
        return .table(fields)
    }

    private static func date(_ object: inout CanonicalJSONObject, _ key: String) throws(CanonicalJSONError) -> Date {
        let text = try object.requiredString(key)
        guard let date = RFC3339.parse(text) else {
            throw object.error(key, "\"\(text.prefix(40))\" is not a UTC time like 2026-11-23T09:30:00Z")
        }
        return date
    }
}
