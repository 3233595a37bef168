import Foundation
import JunctionArtifact
import Testing

@Suite struct KeyFileTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("junction-key-\(UUID().uuidString)").path
    }

    static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func writesAPrivateKeyWithMode0600AndAPublicKeyBesideIt() throws {
        let path = Self.temporaryPath()
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".pub")
        }
        try KeyFile.write(Fixtures.key, to: path)
        #expect(try Self.mode(path) == 0o600)
        #expect(try Self.mode(path + ".pub") == 0o644)
        #expect(
            try String(contentsOfFile: path, encoding: .utf8)
                == "junction-ed25519-private AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=\n")
        #expect(
            try String(contentsOfFile: path + ".pub", encoding: .utf8)
                == "junction-ed25519-public \(Data(Fixtures.key.publicKey.rawRepresentation).base64EncodedString()) \(Fixtures.key.keyID)\n"
        )
        #expect(try KeyFile.readSigningKey(at: path).seed == Fixtures.key.seed)
        #expect(try KeyFile.readVerificationKey(at: path + ".pub") == Fixtures.key.publicKey)
    }

    @Test func neverOverwritesAKeyFile() throws {
        let path = Self.temporaryPath()
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".pub")
        }
        try KeyFile.write(Fixtures.key, to: path)
        #expect(
            ArtifactBuilderTests.message { try KeyFile.write(Fixtures.otherKey, to: path) }
                == "keyFileExists: \(path) exists; a key file is never overwritten")
        #expect(try KeyFile.readSigningKey(at: path).seed == Fixtures.key.seed)
    }

    @Test func leavesNoPrivateKeyWhenThePublicFileExists() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path + ".pub") }
        try "keep me".write(toFile: path + ".pub", atomically: false, encoding: .utf8)
        #expect(
            ArtifactBuilderTests.message { try KeyFile.write(Fixtures.key, to: path) }
                == "keyFileExists: \(path).pub exists; a key file is never overwritten")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try String(contentsOfFile: path + ".pub", encoding: .utf8) == "keep me")
    }

    @Test func refusesToWriteThroughASymlink() throws {
        let path = Self.temporaryPath()
        let target = Self.temporaryPath()
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: target)
        }
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        #expect(
            ArtifactBuilderTests.message { try KeyFile.write(Fixtures.key, to: path) }?.hasPrefix("keyFileExists:")
                == true)
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    static let publicLine = KeyFile.publicText(Fixtures.key.publicKey)
    static let privateLine = KeyFile.privateText(Fixtures.key)
    static let privateError =
        #"badKeyFile: k is not a private key file: expected one line "junction-ed25519-private <base64 of 32 bytes>""#
    static let publicError =
        #"badKeyFile: k is not a public key file: expected one line "junction-ed25519-public <base64 of 32 bytes> <key id>""#

    static let badPrivate: [(String, String)] = [
        ("", privateError),
        ("junction-ed25519-private\n", privateError),
        (privateLine.replacingOccurrences(of: "private", with: "public"), privateError),
        (privateLine.replacingOccurrences(of: " ", with: "  "), privateError),
        (privateLine.replacingOccurrences(of: "=", with: ""), privateError),
        ("junction-ed25519-private AQEB\n", privateError),
        (
            "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n",
            "badKeyFile: k has more than one line; a key file has one"
        ),
        (privateLine + "\n", "badKeyFile: k has more than one line; a key file has one"),
        (
            privateLine.replacingOccurrences(of: "\n", with: "\r\n"),
            "badKeyFile: k has more than one line; a key file has one"
        ),
        (publicLine, privateError),
    ]

    @Test(arguments: badPrivate)
    func refusesAnythingButOnePrivateKeyLine(text: String, message: String) {
        #expect(ArtifactBuilderTests.message { try KeyFile.signingKey(from: text, file: "k") } == message)
    }

    static let badPublic: [(String, String)] = [
        ("", publicError),
        (privateLine, publicError),
        (publicLine.replacingOccurrences(of: " \(Fixtures.key.keyID)", with: ""), publicError),
        (
            publicLine.replacingOccurrences(of: Fixtures.key.keyID, with: Fixtures.otherKey.keyID),
            "badKeyFile: k names key id \"\(Fixtures.otherKey.keyID)\", but its key's id is \(Fixtures.key.keyID)"
        ),
        (publicLine + "junk\n", "badKeyFile: k has more than one line; a key file has one"),
    ]

    @Test(arguments: badPublic)
    func refusesAnythingButOnePublicKeyLineWithItsOwnKeyID(text: String, message: String) {
        #expect(ArtifactBuilderTests.message { try KeyFile.verificationKey(from: text, file: "k") } == message)
    }

    /// A key of a later seq epoch says so after the key, in both files; a key file without
    /// it is epoch 0, as every key file written before epochs.
    @Test func aKeyOfALaterEpochCarriesItInBothFiles() throws {
        let key = try SigningKey(seed: Fixtures.key.seed, epoch: 3)
        #expect(KeyFile.privateText(key) == Self.privateLine.dropLast() + " epoch 3\n")
        #expect(KeyFile.publicText(key.publicKey) == Self.publicLine.dropLast() + " epoch 3\n")
        #expect(try KeyFile.signingKey(from: KeyFile.privateText(key), file: "k").epoch == 3)
        #expect(try KeyFile.verificationKey(from: KeyFile.publicText(key.publicKey), file: "k") == key.publicKey)
        #expect(try KeyFile.verificationKey(from: Self.publicLine, file: "k").epoch == 0)
        #expect(try KeyFile.signingKey(from: Self.privateLine, file: "k").epoch == 0)
    }

    static let epochError =
        #"badKeyFile: k: after the key, expected "epoch N" with N from 1 to 9007199254740991 (the seq epoch the key signs), or nothing for epoch 0"#

    @Test(arguments: [
        " epoch 0", " epoch 01", " epoch -1", " epoch 9007199254740992", " epoch 99999999999999999999", " era 2",
        " epoch x",
    ])
    func refusesAnEpochThatIsNotOneToTwoToThe53(suffix: String) {
        let privateText = String(Self.privateLine.dropLast()) + suffix + "\n"
        let publicText = String(Self.publicLine.dropLast()) + suffix + "\n"
        #expect(
            ArtifactBuilderTests.message { try KeyFile.signingKey(from: privateText, file: "k") } == Self.epochError)
        #expect(
            ArtifactBuilderTests.message { try KeyFile.verificationKey(from: publicText, file: "k") } == Self.epochError
        )
    }

    @Test func acceptsALineWithoutItsFinalNewline() throws {
        #expect(try KeyFile.signingKey(from: String(Self.privateLine.dropLast()), file: "k").seed == Fixtures.key.seed)
    }

    @Test func readsAtMostTheSizeLimitOfAKeyFile() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: 0x41, count: 10 << 20).write(to: URL(fileURLWithPath: path))
        #expect(
            ArtifactBuilderTests.message { try KeyFile.readSigningKey(at: path) }
                == "badKeyFile: \(path) has more than 1024 bytes; it is not a key file")
        #expect(
            ArtifactBuilderTests.message { try KeyFile.readSigningKey(at: "/nonexistent/key") }
                == "io: cannot read /nonexistent/key")
    }

    @Test func newKeysDifferAndSignWhatTheirPublicHalfVerifies() {
        let a = SigningKey()
        let b = SigningKey()
        #expect(a.seed != b.seed)
        let message = Array("hello".utf8)
        #expect(a.publicKey.isValidSignature(a.signature(for: message[...])[...], for: message[...]))
        #expect(!b.publicKey.isValidSignature(a.signature(for: message[...])[...], for: message[...]))
    }

    @Test func refusesSeedsAndPublicKeysOfTheWrongLength() {
        #expect(
            ArtifactBuilderTests.message { try SigningKey(seed: [1, 2]) }
                == "badKeyFile: a private key's seed is 32 bytes, not 2")
        #expect(
            ArtifactBuilderTests.message { try VerificationKey(rawRepresentation: []) }
                == "badKeyFile: a public key is 32 bytes, not 0")
    }
}
