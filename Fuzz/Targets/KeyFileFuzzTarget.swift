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
        let readSigning = { (text: String) throws(ArtifactError) in try KeyFile.signingKey(from: text, file: "fuzz.key")
        }
        let readVerification = { (text: String) throws(ArtifactError) in
            try KeyFile.verificationKey(from: text, file: "fuzz.key")
        }
        let signing = try KeyFileFuzzing.read("private", text, with: readSigning)
        let verification = try KeyFileFuzzing.read("public", text, with: readVerification)
        try require(
            signing == nil || verification == nil, "no text is both a private and a public key file",
            text.debugDescription)

        if let key = signing {
            try KeyFileFuzzing.checkRewriting(
                "private", text, as: KeyFile.privateText(key), with: readSigning,
                isSame: {
                    $0.seed == key.seed && $0.epoch == key.epoch && $0.publicKey == key.publicKey
                        && $0.keyID == key.keyID
                })
            let message = bytes.prefix(64)
            let signature = key.signature(for: message)
            try require(signature.count == 64, "an Ed25519 signature is 64 bytes", "\(signature.count) bytes")
            try require(
                key.publicKey.isValidSignature(signature[...], for: message),
                "a key's public half verifies its signature", text.debugDescription)
            let other = Array(message) + [0]
            try require(
                !key.publicKey.isValidSignature(signature[...], for: other[...]),
                "a signature verifies only its own message", text.debugDescription)
        }
        if let key = verification {
            try KeyFileFuzzing.checkRewriting(
                "public", text, as: KeyFile.publicText(key), with: readVerification,
                isSame: { $0 == key && $0.keyID == key.keyID && $0.rawRepresentation.count == 32 })
        }
    }
}

/// The checks of the `key-file` target, the same for a private and a public key file.
private enum KeyFileFuzzing {
    /// The key `read` makes of `text`, or nil when it refuses: a refusal is `badKeyFile`
    /// and says why.
    static func read<Key>(_ kind: String, _ text: String, with read: (String) throws(ArtifactError) -> Key)
        throws(FuzzFailure) -> Key?
    {
        do throws(ArtifactError) {
            return try read(text)
        } catch {
            try require(error.code == .badKeyFile, "a \(kind) key refusal is badKeyFile", error.description)
            try require(!error.message.isEmpty, "a refusal says why", error.description)
            return nil
        }
    }

    /// `text`, accepted, is `written` — the key's one text, which ends with a newline —
    /// byte for byte, with or without that newline, and `written` reads back to a key
    /// `isSame` accepts.
    static func checkRewriting<Key>(
        _ kind: String, _ text: String, as written: String, with read: (String) throws(ArtifactError) -> Key,
        isSame: (Key) -> Bool
    ) throws(FuzzFailure) {
        try require(
            text.utf8.elementsEqual(written.utf8) || text.utf8.elementsEqual(written.utf8.dropLast()),
            "an accepted \(kind) key file is its key's one text",
            "\(text.debugDescription) read, \(written.debugDescription) written")
        let again: Key
        do throws(ArtifactError) {
            again = try read(written)
        } catch {
            throw FuzzFailure("a written \(kind) key file reads back", "\(error) for \(written.debugDescription)")
        }
        try require(isSame(again), "a written \(kind) key file reads back to the same key", written.debugDescription)
    }
}
