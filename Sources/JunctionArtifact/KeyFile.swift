import Foundation

#if canImport(Glibc)
    import Glibc

    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin

    private let systemWrite = Darwin.write
#endif

/// Key files (docs/artifacts.md): one line each,
/// `junction-ed25519-private <base64 of the 32-byte seed>` and
/// `junction-ed25519-public <base64 of the 32-byte public key> <key id>`, both followed by
/// ` epoch <N>` for a key of a seq epoch above 0 (``SigningKey/epoch``).
public enum KeyFile {
    /// The most bytes a key file may have; a real one has under 100.
    public static let sizeLimit = 1_024

    static let privateTag = "junction-ed25519-private"
    static let publicTag = "junction-ed25519-public"

    /// The private key file's text for `key`.
    public static func privateText(_ key: SigningKey) -> String {
        "\(privateTag) \(Data(key.seed).base64EncodedString())\(epochText(key.epoch))\n"
    }

    /// The public key file's text for `key`.
    public static func publicText(_ key: VerificationKey) -> String {
        "\(publicTag) \(Data(key.rawRepresentation).base64EncodedString()) \(key.keyID)\(epochText(key.epoch))\n"
    }

    /// Written only above 0, so a key file has one text.
    private static func epochText(_ epoch: UInt64) -> String { epoch > 0 ? " epoch \(epoch)" : "" }

    /// The epoch the words after a key's own give: none is 0; else `epoch N`, N from 1 to
    /// ``ChannelPointer/maximumSeq`` in plain decimal.
    private static func epoch(_ words: ArraySlice<Substring>, file: String) throws(ArtifactError) -> UInt64 {
        if words.isEmpty { return 0 }
        guard words.count == 2, words.first == "epoch", let digits = words.last, (1...16).contains(digits.utf8.count),
            digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }), digits.first != "0", let value = UInt64(digits),
            value <= ChannelPointer.maximumSeq
        else {
            throw ArtifactError(
                .badKeyFile,
                "\(file): after the key, expected \"epoch N\" with N from 1 to \(ChannelPointer.maximumSeq) (the seq "
                    + "epoch the key signs), or nothing for epoch 0")
        }
        return value
    }

    /// The signing key in `text`.
    /// - Throws: ``ArtifactError/Code-swift.struct/badKeyFile`` unless `text` is exactly a private key line.
    public static func signingKey(from text: String, file: String) throws(ArtifactError) -> SigningKey {
        let words = try line(text, file: file)
        guard words.count == 2 || words.count == 4, words[0] == privateTag, let seed = decode(words[1]) else {
            throw ArtifactError(
                .badKeyFile,
                "\(file) is not a private key file: expected one line \"\(privateTag) <base64 of 32 bytes>\"")
        }
        return try SigningKey(seed: seed, epoch: epoch(words.dropFirst(2), file: file))
    }

    /// The verification key in `text`, whose key id must be the key's.
    /// - Throws: ``ArtifactError/Code-swift.struct/badKeyFile`` unless `text` is exactly a public key line.
    public static func verificationKey(from text: String, file: String) throws(ArtifactError) -> VerificationKey {
        let words = try line(text, file: file)
        guard words.count == 3 || words.count == 5, words[0] == publicTag, let raw = decode(words[1]) else {
            throw ArtifactError(
                .badKeyFile,
                "\(file) is not a public key file: expected one line \"\(publicTag) <base64 of 32 bytes> <key id>\"")
        }
        let key = try VerificationKey(rawRepresentation: raw, epoch: epoch(words.dropFirst(3), file: file))
        guard key.keyID == words[2] else {
            throw ArtifactError(
                .badKeyFile,
                "\(file) names key id \(HeaderFields.quoted(String(words[2]))), but its key's id is \(key.keyID)")
        }
        return key
    }

    /// Reads the private key file at `path`.
    /// - Throws: ``ArtifactError`` (`io`, `badKeyFile`).
    public static func readSigningKey(at path: String) throws(ArtifactError) -> SigningKey {
        try signingKey(from: read(path), file: path)
    }

    /// Reads the public key file at `path`.
    /// - Throws: ``ArtifactError`` (`io`, `badKeyFile`).
    public static func readVerificationKey(at path: String) throws(ArtifactError) -> VerificationKey {
        try verificationKey(from: read(path), file: path)
    }

    /// Writes `key` to `path` (mode 0600) and its public half to `path.pub` (mode 0644), each
    /// created anew: an existing file is never overwritten.
    /// - Throws: ``ArtifactError/Code-swift.struct/keyFileExists`` when either file exists,
    ///   ``ArtifactError/Code-swift.struct/io`` when one cannot be written; nothing is left behind.
    public static func write(_ key: SigningKey, to path: String) throws(ArtifactError) {
        let publicPath = path + ".pub"
        try create(path, text: privateText(key), mode: 0o600)
        do {
            try create(publicPath, text: publicText(key.publicKey), mode: 0o644)
        } catch {
            unlink(path)
            throw error
        }
    }

    private static func create(_ path: String, text: String, mode: mode_t) throws(ArtifactError) {
        // O_EXCL: refuse an existing file (or a symlink to one) instead of replacing a key.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard fd >= 0 else {
            let code = errno
            if code == EEXIST { throw ArtifactError(.keyFileExists, "\(path) exists; a key file is never overwritten") }
            throw ArtifactError(.io, "cannot create \(path): \(String(cString: strerror(code)))")
        }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        // The umask may only have narrowed the mode; make it exact.
        let written = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
        guard fchmod(fd, mode) == 0, written == bytes.count, fsync(fd) == 0 else {
            let code = errno
            unlink(path)
            throw ArtifactError(.io, "cannot write \(path): \(String(cString: strerror(code)))")
        }
    }

    private static func read(_ path: String) throws(ArtifactError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ArtifactError(.io, "cannot read \(path)") }
        defer { try? handle.close() }
        // One byte past the limit tells a too large file from one exactly at it, without reading it all.
        guard let data = try? handle.read(upToCount: sizeLimit + 1) else {
            throw ArtifactError(.io, "cannot read \(path)")
        }
        guard data.count <= sizeLimit else {
            throw ArtifactError(.badKeyFile, "\(path) has more than \(sizeLimit) bytes; it is not a key file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ArtifactError(.badKeyFile, "\(path) is not UTF-8 text; it is not a key file")
        }
        return text
    }

    private static func line(_ text: String, file: String) throws(ArtifactError) -> [Substring] {
        var body = Substring(text)
        if body.hasSuffix("\n") { body = body.dropLast() }
        guard !body.contains("\n"), !body.contains("\r") else {
            throw ArtifactError(.badKeyFile, "\(file) has more than one line; a key file has one")
        }
        return body.split(separator: " ", omittingEmptySubsequences: false)
    }

    /// Strict base64 of 32 bytes: decodes, and encodes back to the same text.
    private static func decode(_ word: Substring) -> [UInt8]? {
        guard let data = Data(base64Encoded: String(word)), data.count == 32, data.base64EncodedString() == word
        else { return nil }
        return Array(data)
    }
}
