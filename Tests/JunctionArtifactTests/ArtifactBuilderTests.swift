import Foundation
import JunctionArtifact
import Testing

@Suite struct ArtifactBuilderTests {
    @Test func buildsAnArtifactThatVerifiesWithEveryMemberInPlace() throws {
        let artifact = try Artifact(verifying: Fixtures.artifact, keyring: Fixtures.keyring, at: Fixtures.now)
        #expect(artifact.header.name == "example")
        #expect(artifact.header.version == "3.1")
        #expect(artifact.header.minimumHostVersion == "2.0")
        #expect(artifact.header.keyID == Fixtures.key.keyID)
        #expect(artifact.header.created == Fixtures.created)
        #expect(artifact.header.expires == Fixtures.expires)
        #expect(
            artifact.header.members.map(\.path) == [
                "login.lua", "manifest.json", "policies.lua", "routes.json", "tests.json",
            ])
        for member in Fixtures.members {
            #expect(artifact.contents(of: member.path).map(Array.init) == member.bytes)
        }
        #expect(artifact.contents(of: "absent.lua") == nil)
        #expect(artifact.bytes == Fixtures.artifact)
    }

    @Test func writesTheSameBytesAsTheIndependentRawWriter() {
        // Ed25519 is deterministic (RFC 8032), so the whole file is equal, signature included.
        #expect(Fixtures.artifact == RawArtifact().signed())
    }

    @Test func isReproducibleWhateverOrderMembersAreAddedIn() throws {
        var reversed = ArtifactBuilder(
            name: "example", version: "3.1", created: Fixtures.created.addingTimeInterval(0.75),
            expires: Fixtures.expires, minimumHostVersion: "2.0")
        for member in Fixtures.members.reversed() {
            reversed.add(path: member.path, kind: member.kind, bytes: member.bytes)
        }
        let first = try Fixtures.builder.build(signedWith: Fixtures.key)
        let second = try reversed.build(signedWith: Fixtures.key)
        #expect(first == second)
        #expect(first.dropLast(64) == Fixtures.artifact.dropLast(64))
    }

    @Test func writesTheHeaderAsCanonicalJSONAfterATwelveBytePrefix() {
        let bytes = Fixtures.artifact
        #expect(Array(bytes[0..<8]) == [0x4A, 0x42, 0x4E, 0x44, 0x4C, 0x00, 0x00, 0x01])
        let length = bytes[8..<12].reduce(0) { $0 << 8 | Int($1) }
        let header = String(decoding: bytes[12..<(12 + length)], as: UTF8.self)
        #expect(
            header.hasPrefix(
                #"{"created":"2026-05-31T12:00:00Z","expires":"2026-07-01T00:00:00Z","format":1,"key_id":""#))
        #expect(header.hasSuffix(#","minimum_host_version":"2.0","name":"example","version":"3.1"}"#))
    }

    @Test func keyIDIsTheHexOfTheFirstEightBytesOfTheSHA256OfThePublicKey() {
        let key = Fixtures.key.publicKey
        #expect(key.keyID == String(Fixtures.sha256(key.rawRepresentation).prefix(16)))
        #expect(key.keyID.count == 16)
    }

    static let refusals: [(String, ArtifactMemberKind, String)] = [
        ("../escape.lua", .lua, #"badPath: member path "../escape.lua" has a .. segment"#),
        ("/etc/passwd", .lua, #"badPath: member path "/etc/passwd" is absolute"#),
        (
            "rules/a.lua", .lua,
            #"badPath: member path "rules/a.lua" is not name.lua at the top level (letters, digits, _, - and .), the path of a lua member"#
        ),
        ("a\\b.lua", .lua, #"badPath: member path "a\b.lua" has a backslash"#),
        (
            "routes.yaml", .routes,
            #"badPath: member path "routes.yaml" is not routes.json, the one path of a routes member"#
        ),
        ("manifest.json", .manifest, #"duplicateMember: member "manifest.json" is listed twice"#),
    ]

    @Test(arguments: refusals)
    func refusesToBuildWhatAReaderWouldRefuse(path: String, kind: ArtifactMemberKind, message: String) {
        var builder = Fixtures.builder
        builder.add(path: path, kind: kind, bytes: [1, 2, 3])
        #expect(Self.message { try builder.build(signedWith: Fixtures.key) } == message)
    }

    @Test func refusesToBuildWithoutARouteTable() {
        var builder = ArtifactBuilder(name: "x", version: "1", created: Fixtures.created, expires: Fixtures.expires)
        builder.add(path: "manifest.json", kind: .manifest, bytes: [])
        #expect(
            Self.message { try builder.build(signedWith: Fixtures.key) }
                == "missingMember: the artifact has no routes member (routes.json)")
    }

    @Test func refusesToBuildAnArtifactThatExpiresBeforeItIsCreated() {
        var builder = Fixtures.builder
        builder.expires = Fixtures.created
        #expect(
            Self.message { try builder.build(signedWith: Fixtures.key) }
                == "malformedHeader: the header expires at 2026-05-31T12:00:00Z, not after it was created at 2026-05-31T12:00:00Z"
        )
    }

    @Test func refusesToBuildBeyondTheCaps() {
        var builder = Fixtures.builder
        builder.limits.totalSize = 1_000
        #expect(
            Self.message { try builder.build(signedWith: Fixtures.key) }
                == "oversize: the artifact would have \(Fixtures.artifact.count) bytes; at most 1000 are allowed")
        builder.limits = ArtifactLimits(memberCount: 4)
        #expect(
            Self.message { try builder.build(signedWith: Fixtures.key) } == "oversize: 5 members; at most 4 are allowed"
        )
        builder.limits = ArtifactLimits(headerSize: 100)
        #expect(
            Self.message { try builder.build(signedWith: Fixtures.key) }?.hasPrefix("oversize: the header has ") == true
        )
    }

    @Test func refusesANameWithAControlCharacter() {
        var builder = Fixtures.builder
        builder.name = "ex\nample"
        #expect(
            Self.message { try builder.build(signedWith: Fixtures.key) }
                == #"malformedHeader: the header field name "ex\u{A}ample" holds the control character U+000A; it is one line of visible characters"#
        )
    }

    /// The description of the error `body` throws, or `nil`.
    static func message(_ body: () throws -> some Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as ArtifactError {
            return error.description
        } catch {
            return "not an ArtifactError: \(error)"
        }
    }
}
