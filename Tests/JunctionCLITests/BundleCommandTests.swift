import Crypto
import Foundation
import JunctionArtifact
import Testing

@Suite struct BundleCommandTests {
    static let key = try! SigningKey(seed: [UInt8](repeating: 7, count: 32))

    /// A folder with `key.pub` and an artifact built by `key`, valid from `created` to `expires`.
    static func setUp(created: Date, expires: Date, key: SigningKey = key) throws -> (
        folder: String, artifact: String, pub: String
    ) {
        let folder = try CLIRunner.folder([:])
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try KeyFile.write(key, to: folder + "/key")
        var builder = ArtifactBuilder(
            name: "example", version: "3.1", created: created, expires: expires, minimumHostVersion: "2.0")
        builder.add(path: "manifest.json", kind: .manifest, bytes: Array(#"{"name":"example"}"#.utf8))
        builder.add(path: "routes.json", kind: .routes, bytes: Array(#"{"routes":[]}"#.utf8))
        builder.add(path: "login.lua", kind: .lua, bytes: Array("return 1\n".utf8))
        let artifact = folder + "/example.jbundle"
        try Data(try builder.build(signedWith: key)).write(to: URL(fileURLWithPath: artifact))
        return (folder, artifact, folder + "/key.pub")
    }

    static var fresh: Date { Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 60).rounded(.down)) }

    @Test func keygenWritesAKeyPairAndPrintsTheKeyID() throws {
        let folder = try CLIRunner.folder([:])
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let result = try CLIRunner.run(["keygen", "--out", folder + "/signing"])
        #expect(result.status == 0)
        let pub = try KeyFile.readVerificationKey(at: folder + "/signing.pub")
        #expect(result.stdout == pub.keyID + "\n")
        #expect(result.stderr == "wrote \(folder)/signing (private, mode 0600) and \(folder)/signing.pub\n")
        #expect(try KeyFile.readSigningKey(at: folder + "/signing").publicKey == pub)
        let mode = try FileManager.default.attributesOfItem(atPath: folder + "/signing")[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let again = try CLIRunner.run(["keygen", "--out", folder + "/signing"])
        #expect(again.status == 1)
        #expect(again.stdout == "")
        #expect(again.stderr == "keygen: keyFileExists: \(folder)/signing exists; a key file is never overwritten\n")
        #expect(try KeyFile.readVerificationKey(at: folder + "/signing.pub") == pub)
    }

    @Test func verifyAcceptsAnArtifactSignedByAGivenKey() throws {
        let created = Self.fresh
        let expires = created.addingTimeInterval(86_400)
        let (_, artifact, pub) = try Self.setUp(created: created, expires: expires)
        let other = try Self.setUp(created: created, expires: expires, key: SigningKey())
        let result = try CLIRunner.run(["bundle", "verify", artifact, "--pubkey", other.pub, pub])
        #expect(result.status == 0)
        #expect(
            result.stdout
                == "\(artifact): ok, example 3.1, 3 members, signed by \(Self.key.keyID), expires \(expires.formatted(.iso8601))\n"
        )
    }

    @Test func verifyRefusesAnArtifactOfAnotherKeyWithItsReason() throws {
        let created = Self.fresh
        let (_, artifact, _) = try Self.setUp(created: created, expires: created.addingTimeInterval(86_400))
        let other = try Self.setUp(created: created, expires: created.addingTimeInterval(86_400), key: SigningKey())
        let otherID = try KeyFile.readVerificationKey(at: other.pub).keyID
        let result = try CLIRunner.run(["bundle", "verify", artifact, "--pubkey", other.pub])
        #expect(result.status == 1)
        #expect(
            result.stdout
                == "\(artifact): refused: unknownKey: the artifact is signed by key \(Self.key.keyID), which is not in the keyring (\(otherID))\n"
        )
    }

    @Test func verifyRefusesATamperedArtifact() throws {
        let created = Self.fresh
        let (_, artifact, pub) = try Self.setUp(created: created, expires: created.addingTimeInterval(86_400))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: artifact))
        bytes[bytes.count - 70] ^= 1
        try bytes.write(to: URL(fileURLWithPath: artifact))
        let result = try CLIRunner.run(["bundle", "verify", artifact, "--pubkey", pub])
        #expect(result.status == 1)
        #expect(
            result.stdout
                == "\(artifact): refused: badSignature: the signature at byte \(bytes.count - 64) does not verify with key \(Self.key.keyID)\n"
        )
    }

    @Test func verifyRefusesAnExpiredArtifact() throws {
        let created = Date(timeIntervalSince1970: 1_700_000_000)
        let (_, artifact, pub) = try Self.setUp(created: created, expires: created.addingTimeInterval(86_400))
        let result = try CLIRunner.run(["bundle", "verify", artifact, "--pubkey", pub])
        #expect(result.status == 1)
        #expect(
            result.stdout.hasPrefix(
                "\(artifact): refused: expired: the artifact expired at 2023-11-15T22:13:20Z; it is "))
    }

    @Test func verifyExitsTwoWhenTheFileOrAKeyCannotBeRead() throws {
        let created = Self.fresh
        let (folder, artifact, pub) = try Self.setUp(created: created, expires: created.addingTimeInterval(86_400))
        let missing = try CLIRunner.run(["bundle", "verify", folder + "/none.jbundle", "--pubkey", pub])
        #expect(missing.status == 2)
        #expect(missing.stderr == "\(folder)/none.jbundle: cannot read \(folder)/none.jbundle\n")
        let badKey = try CLIRunner.run(["bundle", "verify", artifact, "--pubkey", folder + "/key"])
        #expect(badKey.status == 2)
        #expect(
            badKey.stderr
                == "\(artifact): badKeyFile: \(folder)/key is not a public key file: expected one line \"junction-ed25519-public <base64 of 32 bytes> <key id>\"\n"
        )
        let noKey = try CLIRunner.run(["bundle", "verify", artifact])
        #expect(noKey.status != 0)
    }

    @Test func inspectShowsTheHeaderMembersAndHashesWithoutAKey() throws {
        let created = Date(timeIntervalSince1970: 1_780_228_800)
        let (_, artifact, _) = try Self.setUp(created: created, expires: created.addingTimeInterval(86_400))
        let length = try Data(contentsOf: URL(fileURLWithPath: artifact)).count
        let result = try CLIRunner.run(["bundle", "inspect", artifact])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                \(artifact): example 3.1, format 1, \(length) bytes
                  created   2026-05-31T12:00:00Z
                  expires   2026-06-01T12:00:00Z
                  minimum host version 2.0
                  key id    \(Self.key.keyID) (signature not checked)
                  tests     0
                  members:
                    lua        9  \(Self.sha256("return 1\n"))  login.lua
                    manifest  18  \(Self.sha256(#"{"name":"example"}"#))  manifest.json
                    routes    13  \(Self.sha256(#"{"routes":[]}"#))  routes.json

                """)
        let json = try CLIRunner.run(["bundle", "inspect", artifact, "--json"])
        #expect(json.status == 0)
        #expect(
            json.stdout
                == #"{"file": "\#(artifact)", "name": "example", "version": "3.1", "format": 1, "length": \#(length), "created": "2026-05-31T12:00:00Z", "expires": "2026-06-01T12:00:00Z", "minimum_host_version": "2.0", "key_id": "\#(Self.key.keyID)", "signature": "not checked", "tests": 0, "members": [{"path": "login.lua", "kind": "lua", "length": 9, "sha256": "\#(Self.sha256("return 1\n"))", "hash_ok": true}, {"path": "manifest.json", "kind": "manifest", "length": 18, "sha256": "\#(Self.sha256(#"{"name":"example"}"#))", "hash_ok": true}, {"path": "routes.json", "kind": "routes", "length": 13, "sha256": "\#(Self.sha256(#"{"routes":[]}"#))", "hash_ok": true}]}"#
                + "\n")
    }

    @Test func inspectMarksAMemberWhoseHashDiffersAndExitsOne() throws {
        let created = Date(timeIntervalSince1970: 1_780_228_800)
        let (_, artifact, _) = try Self.setUp(created: created, expires: created.addingTimeInterval(86_400))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: artifact))
        bytes[bytes.count - 64 - 1] ^= 1  // the last byte of routes.json
        try bytes.write(to: URL(fileURLWithPath: artifact))
        let result = try CLIRunner.run(["bundle", "inspect", artifact])
        #expect(result.status == 1)
        #expect(result.stdout.contains("  routes.json  HASH MISMATCH\n"))
    }

    @Test func inspectRefusesWhatIsNotAnArtifact() throws {
        let folder = try CLIRunner.folder(["zip.jbundle": "PK\u{3}\u{4} not a bundle"])
        let result = try CLIRunner.run(["bundle", "inspect", folder + "/zip.jbundle"])
        #expect(result.status == 1)
        #expect(
            result.stdout
                == "\(folder)/zip.jbundle: refused: badMagic: the file does not start with JBNDL and a zero byte: it is not a .jbundle\n"
        )
    }

    static func sha256(_ text: String) -> String {
        Crypto.SHA256.hash(data: Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
