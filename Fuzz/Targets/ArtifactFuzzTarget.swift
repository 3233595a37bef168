import Crypto
import Foundation
import JunctionArtifact
import JunctionCore

extension FuzzTarget {
    /// `.jbundle` artifacts — a device's update, from the network. The first byte picks a mode.
    ///
    /// Even: the rest is an artifact, read by `Artifact.inspect` (with the default caps and
    /// with tight ones) and `Artifact(verifying:keyring:at:)` under a fixed test key. What
    /// inspect accepts lies within its caps, its members exactly fill the space between
    /// header and signature, and its hash mismatches are exactly the members whose SHA-256
    /// differs; what the tight caps accept the defaults accept alike; every refusal has a
    /// code of ``ArtifactError``'s and a message; a structural refusal is the same with a key
    /// and without; only what inspect accepts with no mismatch verifies, and its members'
    /// bytes then have the length and hash the header gives; an artifact refused only for
    /// its dates verifies with the dates skipped, unless a member's hash is wrong.
    ///
    /// Odd: fields (name, version, manifest, routes, maybe tests, up to three Lua members,
    /// one perhaps at a fuzzed path) go to `ArtifactBuilder`, signed with the test key. The
    /// builder refuses only for a header rule or a cap; what it builds verifies and gives back
    /// every member's bytes, and members added in another order give the same bytes before
    /// the signature. Then, as the flags say, one byte is flipped, the end cut off or bytes
    /// appended — every byte of a `.jbundle` is signed or is the signature, so each is
    /// refused: a flip in the members or the signature as `badSignature` (inspect then
    /// names exactly that member, or none), a cut as `truncated`/`unsigned` and bytes after
    /// the signature as `memberLengthMismatch`, with and without a key.
    static let artifact = FuzzTarget(
        name: "artifact",
        summary: "artifacts: inspect keeps its caps, only signed bytes verify, any change to a built one is refused"
    ) { bytes throws(FuzzFailure) in
        var input = FuzzInput(bytes)
        if input.byte() % 2 == 0 {
            try ArtifactFuzzing.checkRead(input.rest())
        } else {
            try ArtifactFuzzing.checkBuilt(&input)
        }
    }
}

/// The test key, times, caps and checks of the `artifact` target.
private enum ArtifactFuzzing {
    /// The key whose seed is 32 bytes of 1, as the artifact tests sign with.
    static let key = try! SigningKey(seed: [UInt8](repeating: 1, count: 32))
    /// Trusts ``key`` only.
    static let keyring = Keyring([key.publicKey])
    /// 2026-05-31T12:00:00Z, when built artifacts are made.
    static let created = Date(timeIntervalSince1970: 1_780_228_800)
    /// 2026-07-01T00:00:00Z, when they expire.
    static let expires = Date(timeIntervalSince1970: 1_782_864_000)
    /// 2026-06-01T00:00:00Z, when they are checked.
    static let now = Date(timeIntervalSince1970: 1_780_272_000)
    /// Caps small enough for fuzzed inputs to cross each of them.
    static let tightLimits = ArtifactLimits(totalSize: 2_048, headerSize: 1_024, memberCount: 4, pathLength: 16)

    /// Every code of ``ArtifactError``.
    static let codes: Set<ArtifactError.Code> = [
        .truncated, .badMagic, .unsupportedFormat, .oversize, .malformedHeader, .unknownKey, .badSignature, .unsigned,
        .memberHashMismatch, .memberLengthMismatch, .badPath, .duplicateMember, .unknownMemberKind, .missingMember,
        .expired, .notYetValid, .badKeyFile, .keyFileExists, .io,
    ]
    /// The codes only the structure check gives (prefix, the header's size and member
    /// count, where the signature lies): the same whether a key is used or not.
    static let structuralCodes: Set<ArtifactError.Code> = [
        .truncated, .badMagic, .unsupportedFormat, .oversize, .unsigned, .memberLengthMismatch,
    ]
    /// What verification can still refuse once the structure and the header's rules hold.
    static let afterHeaderCodes: Set<ArtifactError.Code> = [
        .unknownKey, .badSignature, .expired, .notYetValid, .memberHashMismatch,
    ]
    /// What the builder may refuse: a header rule or a cap.
    static let builderCodes: Set<ArtifactError.Code> = [.malformedHeader, .badPath, .duplicateMember, .oversize]

    static let prefixLength = 12
    static let signatureLength = 64

    // MARK: - Reading fuzzed bytes

    static func checkRead(_ bytes: [UInt8]) throws(FuzzFailure) {
        let inspected = inspect(bytes, limits: .default)
        switch inspected {
        case .success(let inspection): try checkInspection(inspection, of: bytes, limits: .default)
        case .failure(let error): try checkRefusal(error, "inspect")
        }

        switch inspect(bytes, limits: tightLimits) {
        case .success(let tight):
            try checkInspection(tight, of: bytes, limits: tightLimits)
            guard case .success(let inspection) = inspected else {
                throw FuzzFailure("what tight caps accept the default caps accept", "refused with the defaults")
            }
            try require(
                tight.header == inspection.header && tight.hashMismatches == inspection.hashMismatches,
                "the caps do not change what is read", "\(tight.header) ≠ \(inspection.header)")
        case .failure(let error):
            try checkRefusal(error, "inspect (tight caps)")
        }

        switch verify(bytes, dates: .at(now)) {
        case .success(let artifact):
            try checkVerified(artifact, bytes)
            guard case .success(let inspection) = inspected else {
                throw FuzzFailure("what verifies inspect accepts", "inspect refused it")
            }
            try require(
                inspection.header == artifact.header, "inspect and verify read the same header",
                "\(inspection.header) ≠ \(artifact.header)")
            try require(
                inspection.hashMismatches.isEmpty, "what verifies has every member's hash right",
                "inspect names \(inspection.hashMismatches)")
            if case .failure(let error) = verify(bytes, dates: .skipped) {
                throw FuzzFailure("what verifies with its dates verifies without them", error.description)
            }
        case .failure(let error):
            try checkRefusal(error, "verify")
            switch inspected {
            case .failure(let refusal):
                if structuralCodes.contains(refusal.code) {
                    try require(
                        error.code == refusal.code, "a structural refusal is the same with a key and without",
                        "verify: \(error); inspect: \(refusal)")
                }
                if error.code == .unknownKey || error.code == .badSignature {
                    try require(
                        !structuralCodes.contains(refusal.code),
                        "the key is looked up only once the structure holds", "verify: \(error); inspect: \(refusal)")
                }
            case .success(let inspection):
                try require(
                    afterHeaderCodes.contains(error.code),
                    "once inspect accepts, only the key, signature, dates or hashes are refused", error.description)
                if error.code == .memberHashMismatch {
                    try require(
                        !inspection.hashMismatches.isEmpty, "a hash refusal is a mismatch inspect names too",
                        error.description)
                }
            }
            if error.code == .expired || error.code == .notYetValid {
                // Every check but the hashes ran before the dates, and held.
                if case .failure(let again) = verify(bytes, dates: .skipped) {
                    try require(
                        again.code == .memberHashMismatch,
                        "an artifact refused only for its dates verifies with them skipped, unless a hash is wrong",
                        "\(error); skipped: \(again)")
                }
            }
        }
    }

    // MARK: - Building

    /// Reads the builder's inputs, builds, verifies, then changes one thing and checks it is refused.
    static func checkBuilt(_ input: inout FuzzInput) throws(FuzzFailure) {
        let flags = input.byte()
        let position = Int(input.byte()) << 8 | Int(input.byte())
        let mask = input.byte()
        let name = text(input.field(), or: "example")
        let version = text(input.field(), or: "1")
        var members: [(path: String, kind: ArtifactMemberKind, bytes: [UInt8])] = [
            ("manifest.json", .manifest, Array(input.field().prefix(512))),
            ("routes.json", .routes, Array(input.field().prefix(512))),
        ]
        if flags & 0x01 != 0 { members.append(("tests.json", .tests, Array(input.field().prefix(512)))) }
        for index in 0..<Int(flags >> 1 & 0x03) {
            let path =
                flags & 0x08 != 0 && index == 0
                ? String(fuzzBytes: Array(input.field().prefix(40))) : "rules\(index).lua"
            members.append((path, .lua, Array(input.field().prefix(512))))
        }
        let minimumHostVersion: String? = flags & 0x40 != 0 ? "2.0" : nil

        func builder(_ members: [(path: String, kind: ArtifactMemberKind, bytes: [UInt8])]) -> ArtifactBuilder {
            var made = ArtifactBuilder(
                name: name, version: version, created: created, expires: expires,
                minimumHostVersion: minimumHostVersion)
            for member in members { made.add(path: member.path, kind: member.kind, bytes: member.bytes) }
            return made
        }

        let built: [UInt8]
        switch build(builder(members)) {
        case .success(let bytes): built = bytes
        case .failure(let error):
            try checkRefusal(error, "build")
            try require(
                builderCodes.contains(error.code), "the builder refuses only for a header rule or a cap",
                error.description)
            return
        }

        // Reproducible: the order members are added in does not matter (CryptoKit may
        // randomise the signature, so only the bytes before it are compared).
        switch build(builder(Array(members.reversed()))) {
        case .success(let again):
            try require(
                again.dropLast(signatureLength) == built.dropLast(signatureLength),
                "the same members in another order build the same bytes", "\(again.count) vs \(built.count) bytes")
        case .failure(let error):
            throw FuzzFailure("the same members in another order build", error.description)
        }

        let sorted = members.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        switch flags >> 4 & 0x03 {
        case 0:
            try checkUnchanged(built, members: sorted, name: name, version: version)
        case 1:
            let at = position % built.count
            var changed = built
            changed[at] ^= mask == 0 ? 0x01 : mask
            try checkFlipped(changed, at: at, original: built, members: sorted)
        case 2:
            let length = position % built.count
            try checkShortened(Array(built.prefix(length)), from: built.count)
        default:
            let extra = [UInt8](repeating: mask, count: 1 + position % 8)
            try checkAppended(built + extra)
        }
    }

    static func checkUnchanged(
        _ bytes: [UInt8], members: [(path: String, kind: ArtifactMemberKind, bytes: [UInt8])], name: String,
        version: String
    ) throws(FuzzFailure) {
        let artifact: Artifact
        switch verify(bytes, dates: .at(now)) {
        case .success(let verified): artifact = verified
        case .failure(let error): throw FuzzFailure("what the builder builds verifies", error.description)
        }
        try checkVerified(artifact, bytes)
        let header = artifact.header
        try require(
            header.name == name && header.version == version && header.created == created
                && header.expires == expires && header.keyID == key.keyID,
            "the header says what was built", "\(header)")
        try require(
            header.members.map(\.path) == members.map { $0.path }
                && header.members.map(\.kind) == members.map { $0.kind },
            "the member table lists what was added, sorted by path", "\(header.members.map(\.path))")
        for member in members {
            let contents = artifact.contents(of: member.path).map { Array($0) }
            try require(
                contents == member.bytes, "a member's bytes come back as they were added",
                "\(member.path): \(contents?.count ?? -1) bytes, added \(member.bytes.count)")
        }
        switch inspect(bytes, limits: .default) {
        case .success(let inspection):
            try checkInspection(inspection, of: bytes, limits: .default)
            try require(
                inspection.header == header && inspection.hashMismatches.isEmpty,
                "inspect reads a built artifact as verify does", "\(inspection.hashMismatches)")
        case .failure(let error):
            throw FuzzFailure("inspect accepts what the builder builds", error.description)
        }
    }

    /// `bytes` is `original` with the byte at `at` changed.
    static func checkFlipped(
        _ bytes: [UInt8], at: Int, original: [UInt8],
        members: [(path: String, kind: ArtifactMemberKind, bytes: [UInt8])]
    ) throws(FuzzFailure) {
        let verified = verify(bytes, dates: .at(now))
        guard case .failure(let error) = verified else {
            throw FuzzFailure("a changed artifact is refused", "byte \(at) of \(bytes.count) changed, and it verified")
        }
        try checkRefusal(error, "verify")
        let inspected = inspect(bytes, limits: .default)
        if case .failure(let refusal) = inspected { try checkRefusal(refusal, "inspect") }
        let membersStart = original.count - signatureLength - members.reduce(0) { $0 + $1.bytes.count }
        guard at >= membersStart else { return }  // The prefix or the header: any refusal.
        try require(
            error.code == .badSignature, "a change to a member or the signature is a bad signature",
            "byte \(at): \(error)")
        guard case .success(let inspection) = inspected else {
            throw FuzzFailure("inspect reads an artifact whose members or signature changed", "byte \(at)")
        }
        var expected: [String] = []
        var offset = membersStart
        for member in members {
            if (offset..<offset + member.bytes.count).contains(at) { expected = [member.path] }
            offset += member.bytes.count
        }
        try require(
            inspection.hashMismatches == expected, "inspect names exactly the changed member",
            "byte \(at): \(inspection.hashMismatches), expected \(expected)")
        if at >= original.count - signatureLength {
            try require(
                inspection.signature == Array(bytes.suffix(signatureLength)), "inspect gives the signature as it is",
                "byte \(at)")
        }
    }

    /// `bytes` is a built artifact cut short.
    static func checkShortened(_ bytes: [UInt8], from length: Int) throws(FuzzFailure) {
        guard case .failure(let error) = verify(bytes, dates: .at(now)) else {
            throw FuzzFailure("a cut artifact is refused", "\(bytes.count) of \(length) bytes verified")
        }
        guard case .failure(let refusal) = inspect(bytes, limits: .default) else {
            throw FuzzFailure("a cut artifact is refused without a key too", "\(bytes.count) of \(length) bytes")
        }
        for found in [error, refusal] {
            try checkRefusal(found, "cut")
            try require(
                found.code == .truncated || found.code == .unsigned, "a cut artifact is truncated or unsigned",
                "\(bytes.count) of \(length) bytes: \(found)")
        }
        try require(
            error.code == refusal.code, "a cut is refused the same with a key and without", "\(error); \(refusal)")
    }

    /// `bytes` is a built artifact with bytes after its signature.
    static func checkAppended(_ bytes: [UInt8]) throws(FuzzFailure) {
        guard case .failure(let error) = verify(bytes, dates: .at(now)) else {
            throw FuzzFailure("bytes after the signature are refused", "it verified")
        }
        guard case .failure(let refusal) = inspect(bytes, limits: .default) else {
            throw FuzzFailure("bytes after the signature are refused without a key too", "inspect accepted it")
        }
        for found in [error, refusal] {
            try require(
                found.code == .memberLengthMismatch, "bytes after the signature are a length mismatch",
                found.description)
        }
    }

    // MARK: - Properties of what is read

    static func checkRefusal(_ error: ArtifactError, _ what: String) throws(FuzzFailure) {
        try require(
            codes.contains(error.code), "\(what): a refusal has one of ArtifactError's codes", error.description)
        try require(!error.message.isEmpty, "\(what): a refusal says why", "\(error.code) with no message")
    }

    /// What inspect accepted, against the bytes and the caps.
    static func checkInspection(_ inspection: ArtifactInspection, of bytes: [UInt8], limits: ArtifactLimits)
        throws(FuzzFailure)
    {
        let header = inspection.header
        try require(inspection.length == bytes.count, "inspect gives the length", "\(inspection.length)")
        try require(bytes.count <= limits.totalSize, "an accepted artifact is within the total cap", "\(bytes.count)")
        try require(
            header.members.count <= limits.memberCount, "an accepted artifact is within the member cap",
            "\(header.members.count) members")
        guard bytes.count >= prefixLength + signatureLength else {
            throw FuzzFailure("an accepted artifact has a prefix and a signature", "\(bytes.count) bytes")
        }
        let headerLength = bytes[8..<prefixLength].reduce(0) { $0 << 8 | Int($1) }
        try require(headerLength <= limits.headerSize, "an accepted header is within its cap", "\(headerLength)")
        var offset = prefixLength + headerLength
        var mismatches: [String] = []
        for member in header.members {
            try require(
                !member.path.isEmpty && member.path.utf8.count <= limits.pathLength,
                "an accepted path is within the path cap", member.path.debugDescription)
            let (end, overflow) = offset.addingReportingOverflow(member.length)
            guard member.length >= 0, !overflow, end <= bytes.count - signatureLength else {
                throw FuzzFailure(
                    "the members lie between the header and the signature",
                    "\(member.path.debugDescription) claims \(member.length) bytes from \(offset) of \(bytes.count)")
            }
            if hex(SHA256.hash(data: bytes[offset..<end])) != member.sha256 { mismatches.append(member.path) }
            offset = end
        }
        try require(
            offset == bytes.count - signatureLength, "the members fill every byte between the header and the signature",
            "they end at \(offset), the signature starts at \(bytes.count - signatureLength)")
        try require(
            inspection.signature == Array(bytes.suffix(signatureLength)), "the signature is the last 64 bytes", "")
        try require(
            inspection.hashMismatches == mismatches, "inspect names exactly the members whose hash differs",
            "\(inspection.hashMismatches), recomputed \(mismatches)")
        try require(header.format == 1, "an accepted artifact is format 1", "\(header.format)")
        try require(header.expires > header.created, "an accepted artifact expires after it was made", "\(header)")
        try require(
            zip(header.members, header.members.dropFirst()).allSatisfy {
                $0.path.utf8.lexicographicallyPrecedes($1.path.utf8)
            }, "members are sorted by path, each once", "\(header.members.map(\.path))")
        try require(
            header.members.contains { $0.kind == .manifest } && header.members.contains { $0.kind == .routes },
            "an accepted artifact has a manifest and a route table", "\(header.members.map(\.path))")
    }

    /// What verified, against the bytes.
    static func checkVerified(_ artifact: Artifact, _ bytes: [UInt8]) throws(FuzzFailure) {
        try require(artifact.bytes == bytes, "an artifact keeps the bytes it verified", "")
        try require(
            Array(artifact.signature) == Array(bytes.suffix(signatureLength)), "the signature is the last 64 bytes", "")
        try require(artifact.header.keyID == key.keyID, "what verifies names the key it verified with", "")
        for member in artifact.header.members {
            guard let contents = artifact.contents(of: member.path) else {
                throw FuzzFailure("every listed member has contents", member.path.debugDescription)
            }
            try require(
                contents.count == member.length, "a member has the length the header gives",
                "\(member.path.debugDescription): \(contents.count), not \(member.length)")
            try require(
                hex(SHA256.hash(data: contents)) == member.sha256, "a member has the SHA-256 the header gives",
                member.path.debugDescription)
        }
    }

    // MARK: - Calls as results

    static func inspect(_ bytes: [UInt8], limits: ArtifactLimits) -> Result<ArtifactInspection, ArtifactError> {
        do throws(ArtifactError) {
            return .success(try Artifact.inspect(bytes, limits: limits))
        } catch {
            return .failure(error)
        }
    }

    static func verify(_ bytes: [UInt8], dates: ArtifactDateCheck) -> Result<Artifact, ArtifactError> {
        do throws(ArtifactError) {
            if case .at(let time) = dates {
                return .success(try Artifact(verifying: bytes, keyring: keyring, at: time))
            }
            return .success(try Artifact(verifying: bytes, keyring: keyring, dates: dates))
        } catch {
            return .failure(error)
        }
    }

    static func build(_ builder: ArtifactBuilder) -> Result<[UInt8], ArtifactError> {
        do throws(ArtifactError) {
            return .success(try builder.build(signedWith: key))
        } catch {
            return .failure(error)
        }
    }

    /// `bytes` as text, or `fallback` when there are none.
    static func text(_ bytes: [UInt8], or fallback: String) -> String {
        bytes.isEmpty ? fallback : String(fuzzBytes: Array(bytes.prefix(140)))
    }

    /// Lowercase hex.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
