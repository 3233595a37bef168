import Crypto
import Foundation
import JunctionArtifact

/// Keys, times and a small artifact the suites share.
enum Fixtures {
    /// The signing key whose seed is 32 bytes of 1.
    static let key = try! SigningKey(seed: [UInt8](repeating: 1, count: 32))

    /// Another key, seed 32 bytes of 2.
    static let otherKey = try! SigningKey(seed: [UInt8](repeating: 2, count: 32))

    /// A keyring that trusts ``key`` only.
    static let keyring = Keyring([key.publicKey])

    /// 2026-05-31T12:00:00Z, when the fixtures are built.
    static let created = Date(timeIntervalSince1970: 1_780_228_800)

    /// 2026-07-01T00:00:00Z, when they expire.
    static let expires = Date(timeIntervalSince1970: 1_782_864_000)

    /// 2026-06-01T00:00:00Z, when the tests check them.
    static let now = Date(timeIntervalSince1970: 1_780_272_000)

    /// The members of the small artifact, in the order they are added (not sorted).
    static let members: [(path: String, kind: ArtifactMemberKind, bytes: [UInt8])] = [
        (
            "routes.json", .routes,
            Array(
                #"{"routes":[{"name":"home","pattern":"myapp://home","target":"home"},{"name":"moments","pattern":"myapp://moments(/:id)","target":"moments"}]}"#
                    .utf8)
        ),
        (
            "manifest.json", .manifest,
            Array(#"{"name":"example","version":"3","files":["login.lua","policies.lua"]}"#.utf8)
        ),
        ("tests.json", .tests, Array(#"{"tests":[{"open":"myapp://home","expect":{"route":"home"}}]}"#.utf8)),
        (
            "policies.lua", .lua,
            Array(
                "group(\"login\", function(req)\n  if not req.context.user then return gate(\"myapp://login\") end\nend)\n"
                    .utf8)
        ),
        ("login.lua", .lua, Array("interceptor{ name = \"audit\", run = function(req) return nil end }\n".utf8)),
    ]

    /// A builder of the small artifact.
    static var builder: ArtifactBuilder {
        var builder = ArtifactBuilder(
            name: "example", version: "3.1", created: created, expires: expires, minimumHostVersion: "2.0")
        for member in members { builder.add(path: member.path, kind: member.kind, bytes: member.bytes) }
        return builder
    }

    /// The small artifact, signed with ``key``.
    static let artifact = try! builder.build(signedWith: key)

    /// Lowercase hex SHA-256.
    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }
}
