import Foundation
import JunctionArtifact
import Testing

@Suite struct ArtifactVerificationTests {
    /// Verifies `bytes` at the fixtures' time and returns the refusal's text, or `nil`.
    static func refusal(
        _ bytes: [UInt8], keyring: Keyring = Fixtures.keyring, at now: Date = Fixtures.now,
        limits: ArtifactLimits = .default
    ) -> String? {
        ArtifactBuilderTests.message { try Artifact(verifying: bytes, keyring: keyring, at: now, limits: limits) }
    }

    static func raw(_ change: (inout RawArtifact) -> Void) -> RawArtifact {
        var raw = RawArtifact()
        change(&raw)
        return raw
    }

    static let lua = Array("return 1\n".utf8)

    /// Each case is signed by the fixture key, so the signature holds and the structural
    /// check is what refuses it.
    static let signedButWrong: [(String, RawArtifact, String)] = [
        (
            "traversal", raw { $0.members.insert(.init(path: "../x.lua", kind: "lua", bytes: lua), at: 0) },
            #"badPath: member path "../x.lua" has a .. segment"#
        ),
        (
            "dot segment", raw { $0.members.insert(.init(path: "./x.lua", kind: "lua", bytes: lua), at: 0) },
            #"badPath: member path "./x.lua" has a . segment"#
        ),
        (
            "absolute", raw { $0.members.insert(.init(path: "/x.lua", kind: "lua", bytes: lua), at: 0) },
            #"badPath: member path "/x.lua" is absolute"#
        ),
        (
            "empty segment", raw { $0.members.insert(.init(path: "a//x.lua", kind: "lua", bytes: lua), at: 0) },
            #"badPath: member path "a//x.lua" has an empty segment"#
        ),
        (
            "empty path", raw { $0.members.insert(.init(path: "", kind: "lua", bytes: lua), at: 0) },
            #"badPath: member path "" is empty"#
        ),
        (
            "NUL", raw { $0.members.insert(.init(path: "a\u{0}.lua", kind: "lua", bytes: lua), at: 0) },
            #"badPath: member path "a\u{0}.lua" has a control character"#
        ),
        (
            "backslash", raw { $0.members.insert(.init(path: "..\\x.lua", kind: "lua", bytes: lua), at: 0) },
            #"badPath: member path "..\x.lua" has a backslash"#
        ),
        (
            "nested lua", raw { $0.members.insert(.init(path: "lib/x.lua", kind: "lua", bytes: lua), at: 2) },
            #"badPath: member path "lib/x.lua" is not name.lua at the top level (letters, digits, _, - and .), the path of a lua member"#
        ),
        (
            "lua kind on json", raw { $0.members[1].kind = "lua" },
            #"badPath: member path "manifest.json" is not name.lua at the top level (letters, digits, _, - and .), the path of a lua member"#
        ),
        (
            "unknown kind", raw { $0.members.append(.init(path: "zz.sh", kind: "script", bytes: lua)) },
            #"unknownMemberKind: member "zz.sh" has kind "script"; expected manifest, routes, tests or lua"#
        ),
        (
            "duplicate", raw { $0.members.insert($0.members[0], at: 1) },
            #"duplicateMember: member "login.lua" is listed twice"#
        ),
        (
            "missing manifest", raw { $0.members.remove(at: 1) },
            "missingMember: the artifact has no manifest member (manifest.json)"
        ),
        (
            "missing routes", raw { $0.members.remove(at: 3) },
            "missingMember: the artifact has no routes member (routes.json)"
        ),
        (
            "unsorted", raw { $0.members.swapAt(0, 2) },
            #"malformedHeader: the header lists member "manifest.json" after "policies.lua"; members are sorted by path"#
        ),
        (
            "changed member bytes",
            raw {
                $0.members[0].bytes[0] ^= 0x20
                $0.members[0].sha256 = Fixtures.sha256(Fixtures.members[4].bytes)
            },
            "memberHashMismatch: member \"login.lua\" (bytes 823..<889) has SHA-256 \(Fixtures.sha256([0x49] + Fixtures.members[4].bytes.dropFirst())), not \(Fixtures.sha256(Fixtures.members[4].bytes)) as the header says"
        ),
        (
            "hash of another member", raw { $0.members[1].sha256 = Fixtures.sha256(Fixtures.members[0].bytes) },
            "memberHashMismatch: member \"manifest.json\" (bytes 889..<958) has SHA-256 \(Fixtures.sha256(Fixtures.members[1].bytes)), not \(Fixtures.sha256(Fixtures.members[0].bytes)) as the header says"
        ),
        (
            "lengths shifted",
            raw {
                $0.members[0].length = 67
                $0.members[1].length = 68
            },
            "memberHashMismatch: member \"login.lua\" (bytes 823..<890) has SHA-256 \(Fixtures.sha256(Fixtures.members[4].bytes + Fixtures.members[1].bytes.prefix(1))), not \(Fixtures.sha256(Fixtures.members[4].bytes)) as the header says"
        ),
        (
            "format 2 in the header", raw { $0.format = 2 },
            "malformedHeader: the header says format 2, but the file is format 1"
        ),
        (
            "bad created", raw { $0.created = "2026-02-30T00:00:00Z" },
            "malformedHeader: the header field created is not an RFC 3339 UTC time in whole seconds (2026-01-31T09:00:00Z)"
        ),
        (
            "fractional expires", raw { $0.expires = "2026-07-01T00:00:00.5Z" },
            "malformedHeader: the header field expires is not an RFC 3339 UTC time in whole seconds (2026-01-31T09:00:00Z)"
        ),
        ("empty name", raw { $0.name = "" }, "malformedHeader: the header field name is empty"),
        (
            "long version", raw { $0.version = String(repeating: "9", count: 129) },
            "malformedHeader: the header field version has 129 bytes; at most 128 are allowed"
        ),
        (
            "spaces in the header",
            raw {
                $0.headerText = RawArtifact().header.replacingOccurrences(of: #""format":1"#, with: #""format": 1"#)
            },
            "malformedHeader: the header is not in canonical form"
        ),
        (
            "escaped letter",
            raw {
                $0.headerText = RawArtifact().header.replacingOccurrences(of: #""example""#, with: #""\u0065xample""#)
            },
            "malformedHeader: the header is not in canonical form"
        ),
        (
            "format 1.0",
            raw {
                $0.headerText = RawArtifact().header.replacingOccurrences(of: #""format":1"#, with: #""format":1.0"#)
            },
            "malformedHeader: the header field format: expected an integer, found the float 1.0"
        ),
        (
            "unknown field",
            raw {
                $0.headerText = RawArtifact().header.replacingOccurrences(
                    of: #"{"created""#, with: #"{"a":"b","created""#)
            },
            "malformedHeader: the header field a: unknown member; the document has created, expires, format, key_id, "
                + "members, minimum_host_version, name, version"
        ),
        (
            "uppercase hash", raw { $0.members[0].sha256 = Fixtures.sha256(Fixtures.members[4].bytes).uppercased() },
            "malformedHeader: the header field members[0].sha256 is not 64 lowercase hex digits"
        ),
        (
            "negative length", raw { $0.members[0].length = -1 },
            "malformedHeader: the header field members[0].length is negative"
        ),
        (
            "not JSON", raw { $0.headerText = "[1," },
            "malformedHeader: the header at byte 3: the text ends where a value should be"
        ),
        ("a list", raw { $0.headerText = "[]" }, "malformedHeader: the header is an array, not a JSON object"),
        (
            "a duplicate key",
            raw {
                $0.headerText = RawArtifact().header.replacingOccurrences(
                    of: #"{"created""#, with: #"{"name":"other","created""#)
            },
            #"malformedHeader: the header at byte 793: the key "name" appears twice in one object"#
        ),
        (
            "a missing field",
            raw {
                $0.headerText = RawArtifact().header.replacingOccurrences(
                    of: #""key_id":"\#(Fixtures.key.keyID)","#, with: "")
            },
            #"malformedHeader: the header: missing "key_id""#
        ),
        (
            "a member's unknown field",
            raw {
                $0.headerText = RawArtifact().header.replacingOccurrences(
                    of: #"{"kind":"lua","length":66,"#, with: #"{"kind":"lua","length":66,"mode":"0755","#)
            },
            "malformedHeader: the header field members[0].mode: unknown member; members[0] has kind, length, path, "
                + "sha256"
        ),
        (
            "a control character escaped the long way",
            raw {
                $0.headerText = RawArtifact().header.replacingOccurrences(
                    of: #""name":"example""#, with: #""name":"exa\u000ample""#)
            },
            "malformedHeader: the header is not in canonical form"
        ),
        (
            "a control character escaped canonically", raw { $0.name = "exa\nmple" },
            #"malformedHeader: the header field name "exa\u{A}mple" holds the control character U+000A; it is one line of visible characters"#
        ),
        (
            "length as text",
            raw {
                $0.headerText = RawArtifact().header.replacingOccurrences(
                    of: #""length":69,"#, with: #""length":"69","#)
            },
            #"malformedHeader: the header field members[1].length: expected an integer, found text "69""#
        ),
        (
            "trailing bytes", raw { $0.members[4].length = 60 },
            "memberLengthMismatch: the members' lengths add up to 434 bytes, but 435 lie between the header and the signature"
        ),
        (
            "length past the end", raw { $0.members[4].length = 1_000_000 },
            #"truncated: the file ends at byte 1327, inside member "tests.json", which claims 1000000 bytes from byte 1202"#
        ),
        (
            "length past the end, twice",
            raw {
                $0.members[0].length = 1 << 62
                $0.members[1].length = 1 << 62
            },
            #"truncated: the file ends at byte 1356, inside member "login.lua", which claims 4611686018427387904 bytes from byte 857"#
        ),
    ]

    @Test(arguments: signedButWrong)
    func refusesASignedArtifactThatBreaksAStructuralRule(name: String, raw: RawArtifact, message: String) {
        #expect(Self.refusal(raw.signed()) == message, "\(name)")
    }

    @Test func acceptsTheRawWritersArtifactAsIs() {
        #expect(Self.refusal(RawArtifact().signed()) == nil)
    }

    @Test func refusesAnArtifactSignedByAKeyTheKeyringDoesNotHold() {
        let bytes = try! Fixtures.builder.build(signedWith: Fixtures.otherKey)
        #expect(
            Self.refusal(bytes)
                == "unknownKey: the artifact is signed by key \(Fixtures.otherKey.keyID), which is not in the keyring (\(Fixtures.key.keyID))"
        )
        #expect(Self.refusal(bytes, keyring: Keyring([Fixtures.key.publicKey, Fixtures.otherKey.publicKey])) == nil)
    }

    @Test func refusesAnArtifactNamingOneKeyButSignedByAnother() {
        let bytes = RawArtifact().signed(with: Fixtures.otherKey)
        let keyring = Keyring([Fixtures.key.publicKey, Fixtures.otherKey.publicKey])
        #expect(
            Self.refusal(bytes, keyring: keyring)
                == "badSignature: the signature at byte \(bytes.count - 64) does not verify with key \(Fixtures.key.keyID)"
        )
    }

    /// OPA #8531: with several keys and no key id, OPA accepted an unsigned bundle.
    @Test func refusesAnUnsignedArtifactWhateverTheKeyringHolds() {
        for keyring in [Keyring([]), Fixtures.keyring, Keyring([Fixtures.key.publicKey, Fixtures.otherKey.publicKey])] {
            let unsigned = RawArtifact().unsigned
            #expect(
                Self.refusal(unsigned, keyring: keyring)
                    == "unsigned: the file ends at byte \(unsigned.count), where the signature should start")
            #expect(
                Self.refusal(unsigned + [UInt8](repeating: 0, count: 64), keyring: keyring)?.hasPrefix(
                    keyring.keyIDs.isEmpty ? "unknownKey" : "badSignature") == true)
        }
    }

    @Test func refusesAnExpiredArtifactFromTheMomentItExpires() {
        #expect(
            Self.refusal(Fixtures.artifact, at: Fixtures.expires)
                == "expired: the artifact expired at 2026-07-01T00:00:00Z; it is 2026-07-01T00:00:00Z")
        #expect(Self.refusal(Fixtures.artifact, at: Fixtures.expires.addingTimeInterval(-1)) == nil)
    }

    @Test func refusesAnArtifactCreatedLaterThanNowPlusTheSkew() {
        let early = Fixtures.created.addingTimeInterval(-301)
        #expect(
            Self.refusal(Fixtures.artifact, at: early)
                == "notYetValid: the artifact was created at 2026-05-31T12:00:00Z, later than 2026-05-31T11:54:59Z plus the allowed skew of 300.0 seconds"
        )
        #expect(Self.refusal(Fixtures.artifact, at: early.addingTimeInterval(1)) == nil)
        #expect(Self.refusal(Fixtures.artifact, at: early, limits: ArtifactLimits(clockSkew: .seconds(301))) == nil)
    }

    @Test func refusesEachSizeBeyondItsCapBeforeReadingIt() {
        let bytes = Fixtures.artifact
        #expect(
            Self.refusal(bytes, limits: ArtifactLimits(totalSize: bytes.count - 1))
                == "oversize: the artifact has \(bytes.count) bytes; at most \(bytes.count - 1) are allowed")
        #expect(Self.refusal(bytes, limits: ArtifactLimits(totalSize: bytes.count)) == nil)
        let headerLength = bytes[8..<12].reduce(0) { $0 << 8 | Int($1) }
        #expect(
            Self.refusal(bytes, limits: ArtifactLimits(headerSize: headerLength - 1))
                == "oversize: the header has \(headerLength) bytes; at most \(headerLength - 1) are allowed")
        #expect(
            Self.refusal(bytes, limits: ArtifactLimits(memberCount: 4))
                == "oversize: the header lists 5 members; at most 4 are allowed")
        #expect(
            Self.refusal(bytes, limits: ArtifactLimits(pathLength: 12))
                == #"badPath: member path "manifest.json" has 13 bytes; at most 12 are allowed"#)
    }

    @Test func refusesAHeaderLengthBeyondTheCapWithoutAllocatingIt() {
        var bytes = Fixtures.artifact
        bytes.replaceSubrange(8..<12, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Self.refusal(bytes) == "oversize: the header has 4294967295 bytes; at most 524288 are allowed")
    }

    @Test func refusesAMemberCountBeyondTheCapByDefault() {
        let many = (0..<1_025).map { RawArtifact.Member(path: String(format: "r%04d.lua", $0), kind: "lua", bytes: []) }
        let raw = Self.raw { $0.members = many + $0.members.filter { $0.kind != "lua" } }
        #expect(Self.refusal(raw.signed()) == "oversize: the header lists 1028 members; at most 1024 are allowed")
    }

    @Test(arguments: [
        ([UInt8](), "truncated: the file ends at byte 0, inside the 12-byte prefix"),
        (Array("JBNDL".utf8), "truncated: the file ends at byte 5, inside the 12-byte prefix"),
        (
            Array("PK\u{3}\u{4}".utf8),
            "badMagic: the file does not start with JBNDL and a zero byte: it is not a .jbundle"
        ),
        (
            Array("JBNDL\u{0}\u{0}\u{2}\u{0}\u{0}\u{0}\u{0}".utf8),
            "unsupportedFormat: the artifact is format 2; this reader knows format 1"
        ),
        (
            Array("JBNDL\u{0}\u{1}\u{0}\u{0}\u{0}\u{0}\u{0}".utf8),
            "unsupportedFormat: the artifact is format 256; this reader knows format 1"
        ),
        (
            Array("JBNDL\u{0}\u{0}\u{1}\u{0}\u{0}\u{0}\u{9}{}".utf8),
            "truncated: the file ends at byte 14, inside the header, which ends at byte 21"
        ),
    ])
    func refusesAPrefixThatIsNotAJbundles(bytes: [UInt8], message: String) {
        #expect(Self.refusal(bytes) == message)
    }
}

extension ArtifactVerificationTests {
    static let hostileHeaders: [String: (header: String, byte: Int)] = [
        "500,000 open lists": (String(repeating: "[", count: 500_000), 3),
        "100,000 nested objects": (String(repeating: "{\"a\":", count: 100_000), 15),
        "four nested lists": (#"{"members":[[[]]]}"#, 13),
    ]

    /// Nesting is refused where it passes the three levels a header has, before the reader
    /// recurses deeper.
    @Test(arguments: hostileHeaders.keys.sorted())
    func refusesAHeaderNestedDeeperThanAHeaderIs(name: String) throws {
        let (header, byte) = try #require(Self.hostileHeaders[name])
        let raw = Self.raw { $0.headerText = header }
        #expect(
            Self.refusal(raw.signed())
                == "malformedHeader: the header at byte \(byte): nests deeper than 3 arrays and objects")
    }

    @Test func refusesAHeaderOfEscapesUpToTheHeaderCap() {
        let raw = Self.raw { $0.headerText = "{\"name\":\"" + String(repeating: "\\u0041", count: 80_000) + "\"}" }
        #expect(Self.refusal(raw.signed()) == #"malformedHeader: the header: missing "members""#)
    }
}
