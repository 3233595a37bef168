import JunctionArtifact
import JunctionCore

extension FuzzTarget {
    /// Key files (docs/artifacts.md): the input's first ``KeyFile/sizeLimit`` bytes, as text,
    /// read both as a private key file (`KeyFile.signingKey(from:file:)`) and as a public one
    /// (`KeyFile.verificationKey(from:file:)`).
    ///
    /// Asserted: no text is both; a refusal is `badKeyFile` and says why; an accepted text is
    /// the key's one text — what `privateText`/`publicText` write, byte for byte, with or
    /// without its final newline — and that text reads back to the same key (seed, public
    /// key, epoch, key id); a signing key read signs the input and its public key verifies
    /// that signature, and not for another message.
    static let keyFile = FuzzTarget(
        name: "key-file",
        summary:
            "key files: an accepted key file is its key's one text and re-reads to the same key; refusals are badKeyFile"
    ) { bytes throws(FuzzFailure) in
        let text = String(fuzzBytes: Array(bytes.prefix(KeyFile.sizeLimit)))
        let file = "fuzz.key"

        let signing: SigningKey?
        do throws(ArtifactError) {
            signing = try KeyFile.signingKey(from: text, file: file)
        } catch {
            try require(error.code == .badKeyFile, "a private key refusal is badKeyFile", error.description)
            try require(!error.message.isEmpty, "a refusal says why", error.description)
            signing = nil
        }
        let verification: VerificationKey?
        do throws(ArtifactError) {
            verification = try KeyFile.verificationKey(from: text, file: file)
        } catch {
            try require(error.code == .badKeyFile, "a public key refusal is badKeyFile", error.description)
            try require(!error.message.isEmpty, "a refusal says why", error.description)
            verification = nil
        }
        try require(
            signing == nil || verification == nil, "no text is both a private and a public key file",
            text.debugDescription)

        if let key = signing {
            let written = KeyFile.privateText(key)
            try require(
                isKeyFileText(text, of: written), "an accepted private key file is its key's one text",
                "\(text.debugDescription) read, \(written.debugDescription) written")
            let again: SigningKey
            do throws(ArtifactError) {
                again = try KeyFile.signingKey(from: written, file: file)
            } catch {
                throw FuzzFailure("a written private key file reads back", "\(error) for \(written.debugDescription)")
            }
            try require(
                again.seed == key.seed && again.epoch == key.epoch && again.publicKey == key.publicKey
                    && again.keyID == key.keyID,
                "a written private key file reads back to the same key", written.debugDescription)
            let message = bytes.prefix(64)
            let signature = key.signature(for: message)
            try require(signature.count == 64, "an Ed25519 signature is 64 bytes", "\(signature.count) bytes")
            try require(
                key.publicKey.isValidSignature(signature[...], for: message),
                "a key's public half verifies its signature", written.debugDescription)
            let other = Array(message) + [0]
            try require(
                !key.publicKey.isValidSignature(signature[...], for: other[...]),
                "a signature verifies only its own message", written.debugDescription)
        }

        if let key = verification {
            let written = KeyFile.publicText(key)
            try require(
                isKeyFileText(text, of: written), "an accepted public key file is its key's one text",
                "\(text.debugDescription) read, \(written.debugDescription) written")
            let again: VerificationKey
            do throws(ArtifactError) {
                again = try KeyFile.verificationKey(from: written, file: file)
            } catch {
                throw FuzzFailure("a written public key file reads back", "\(error) for \(written.debugDescription)")
            }
            try require(
                again == key && again.keyID == key.keyID && again.rawRepresentation.count == 32,
                "a written public key file reads back to the same key", written.debugDescription)
        }
    }
}

/// Whether `text` is `written` (which ends with a newline), byte for byte, with or without
/// that newline.
private func isKeyFileText(_ text: String, of written: String) -> Bool {
    text.utf8.elementsEqual(written.utf8) || text.utf8.elementsEqual(written.utf8.dropLast())
}
