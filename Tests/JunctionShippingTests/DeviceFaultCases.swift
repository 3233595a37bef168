import Foundation
import Junction
import JunctionShipping
import JunctionArtifact

/// The device's fault matrix, generated in code over the small `shop` bundle: every
/// single-bit flip and every truncation of a valid pointer and of its artifact, and the
/// attacks and mistakes one by one. A device that accepted ``accepted`` (seq 5, the
/// previous bundle) is offered each; none may activate. An installer's tests drive the
/// same cases to prove the previous bundle keeps deciding.
enum DeviceFaultCases {
    typealias Code = UpdateRefusal.Code

    /// The previous bundle's artifact, accepted under seq 5.
    static let previousArtifact = ShippingFixture.artifact(ShippingFixture.previous, version: "1.3.0")
    /// Its pointer.
    static let previousPointer = ShippingFixture.pointer(for: previousArtifact, seq: 5)
    /// What the device accepted last.
    static let accepted = UpdateIdentity(seq: 5, artifact: previousArtifact)

    /// The update every case is a fault of: a valid artifact of the next bundle under seq 6.
    static let validArtifact = ShippingFixture.artifact()
    /// Its pointer.
    static let validPointer = ShippingFixture.pointer(for: validArtifact, seq: 6)

    /// Every case.
    static let all: [DeviceFaultCase] = pointerFlips + pointerTruncations + artifactFlips + artifactTruncations + named

    /// Every bit of the pointer flipped, one at a time, expecting by region: a value's
    /// byte changes what is signed (unless it breaks the JSON), the key id's picks another
    /// key, the signature's breaks it, the rest breaks the JSON.
    static var pointerFlips: [DeviceFaultCase] {
        let regions = pointerRegions(validPointer)
        var cases: [DeviceFaultCase] = []
        for offset in validPointer.indices {
            for bit in 0..<8 {
                var bytes = validPointer
                bytes[offset] ^= 1 << bit
                cases.append(
                    DeviceFaultCase(
                        name: "pointer byte \(offset) bit \(bit)", pointer: bytes, artifact: validArtifact,
                        expected: .refused(regions[offset])))
            }
        }
        return cases
    }

    /// The codes a flip of each byte of `pointer` may be refused with.
    static func pointerRegions(_ pointer: [UInt8]) -> [Set<Code>] {
        let text = String(decoding: pointer, as: UTF8.self)
        func offset(of marker: String) -> Int {
            text.utf8.distance(
                from: text.utf8.startIndex, to: text.range(of: marker)!.upperBound.samePosition(in: text.utf8)!)
        }
        let signatureStart = offset(of: #"{"signature":""#)
        let signedStart = offset(of: #","signed":"#)
        let keyIDStart = offset(of: #""key_id":""#)
        var regions = Array(repeating: Set<Code>([.pointerMalformed]), count: pointer.count)
        for index in signatureStart..<(signedStart - #"","signed":"#.utf8.count + 1) {
            regions[index] = [.pointerBadSignature, .pointerMalformed]
        }
        for index in signedStart..<(pointer.count - 1) { regions[index] = [.pointerBadSignature, .pointerMalformed] }
        for index in keyIDStart..<(keyIDStart + 16) { regions[index] = [.pointerUnknownKey, .pointerMalformed] }
        return regions
    }

    /// The pointer cut at every length: never JSON.
    static var pointerTruncations: [DeviceFaultCase] {
        (0..<validPointer.count).map {
            DeviceFaultCase(
                name: "pointer cut to \($0) bytes", pointer: Array(validPointer.prefix($0)), artifact: validArtifact,
                expected: .refused([.pointerMalformed]))
        }
    }

    /// Every bit of the artifact flipped: the pointer's hash refuses it before anything reads it.
    static var artifactFlips: [DeviceFaultCase] {
        var cases: [DeviceFaultCase] = []
        for offset in validArtifact.indices {
            for bit in 0..<8 {
                var bytes = validArtifact
                bytes[offset] ^= 1 << bit
                cases.append(
                    DeviceFaultCase(
                        name: "artifact byte \(offset) bit \(bit)", pointer: validPointer, artifact: bytes,
                        expected: .refused([.artifactHashMismatch])))
            }
        }
        return cases
    }

    /// The artifact cut at every length, and one byte longer: the pointer's length refuses it.
    static var artifactTruncations: [DeviceFaultCase] {
        (0...validArtifact.count).map { length in
            let bytes = length == validArtifact.count ? validArtifact + [0] : Array(validArtifact.prefix(length))
            return DeviceFaultCase(
                name: "artifact of \(bytes.count) bytes", pointer: validPointer, artifact: bytes,
                expected: .refused([.artifactLengthMismatch]))
        }
    }

    /// An artifact with its pointer (seq 6), refused with `code`.
    static func refused(_ name: String, _ artifact: [UInt8], _ code: Code) -> DeviceFaultCase {
        DeviceFaultCase(
            name: name, pointer: ShippingFixture.pointer(for: artifact, seq: 6), artifact: artifact,
            expected: .refused([code]))
    }

    /// The next bundle's members with one Lua file's text replaced.
    static func withPolicies(_ lua: String) -> ShippingFixture.Members {
        var members = ShippingFixture.next
        members.lua["policies.lua"] = Array(lua.utf8)
        return members
    }

    /// The attacks and mistakes, one case each.
    static var named: [DeviceFaultCase] {
        let fixture = ShippingFixture.self
        let now = fixture.now
        let signed = fixture.signedText(of: validPointer)
        var cases: [DeviceFaultCase] = []
        func pointerCase(_ name: String, _ pointer: [UInt8], _ code: Code) {
            cases.append(
                DeviceFaultCase(name: name, pointer: pointer, artifact: validArtifact, expected: .refused([code])))
        }
        // The pointer.
        pointerCase(
            "pointer unsigned",
            Array(#"{"signature":"","signed":\#(signed)}"#.utf8), .pointerUnsigned)
        pointerCase(
            "pointer signed by an unknown key", fixture.pointer(for: validArtifact, seq: 6, key: fixture.otherKey),
            .pointerUnknownKey)
        pointerCase(
            "pointer naming the app's key, signed by another", fixture.pointer(signing: signed, with: fixture.otherKey),
            .pointerBadSignature)
        pointerCase(
            "pointer carrying another pointer's signature",
            Array(
                String(
                    decoding: fixture.pointer(signing: signed.replacingOccurrences(of: #""seq":6"#, with: #""seq":7"#)),
                    as: UTF8.self
                )
                .replacingOccurrences(of: #""seq":7"#, with: #""seq":6"#).utf8),
            .pointerBadSignature)
        pointerCase(
            "pointer of format 2",
            fixture.pointer(signing: signed.replacingOccurrences(of: #""format":1"#, with: #""format":2"#)),
            .pointerUnsupportedFormat)
        pointerCase("pointer of 16,385 bytes", Array(repeating: 0x20, count: 16_385), .pointerOversize)
        pointerCase(
            "pointer with a space",
            Array(String(decoding: validPointer, as: UTF8.self).replacingOccurrences(of: ",", with: ", ").utf8),
            .pointerMalformed)
        pointerCase(
            "a pointer of another channel, with a higher seq",
            fixture.pointer(for: validArtifact, seq: 60, channel: "beta"), .wrongChannel)
        // The ratchet.
        pointerCase("a lower seq (a replay)", fixture.pointer(for: validArtifact, seq: 4), .staleSeq)
        pointerCase(
            "the accepted seq naming another artifact", fixture.pointer(for: validArtifact, seq: 5), .conflictingSeq)
        cases.append(
            DeviceFaultCase(
                name: "the accepted seq and artifact again", pointer: previousPointer, artifact: previousArtifact,
                expected: .unchanged))
        cases.append(
            DeviceFaultCase(
                name: "an update refused before", pointer: validPointer, artifact: validArtifact,
                failed: [UpdateIdentity(seq: 6, artifact: validArtifact)], expected: .refused([.previouslyFailed])))
        pointerCase(
            "a pointer that expired when the update started",
            fixture.pointer(for: validArtifact, seq: 6, created: now.addingTimeInterval(-86_400), expires: now),
            .pointerExpired)
        pointerCase(
            "a pointer dated beyond the clock skew",
            fixture.pointer(
                for: validArtifact, seq: 6, created: now.addingTimeInterval(301),
                expires: now.addingTimeInterval(86_400)),
            .pointerFromFuture)
        pointerCase(
            "a pointer announcing 16 MiB and a byte",
            fixture.pointer(for: validArtifact, seq: 6, length: (16 << 20) + 1), .artifactRefused(.oversize))
        // The download.
        pointerCase(
            "a pointer announcing another length",
            fixture.pointer(for: validArtifact, seq: 6, length: validArtifact.count + 1), .artifactLengthMismatch)
        pointerCase(
            "a pointer announcing another artifact of the same length",
            fixture.pointer(for: validArtifact, seq: 6, sha256: String(repeating: "ab", count: 32)),
            .artifactHashMismatch)
        // The artifact's own checks, each under a pointer that announces it.
        cases.append(
            refused(
                "artifact signed by an unknown key", fixture.artifact(key: fixture.otherKey),
                .artifactRefused(.unknownKey)))
        var forged = validArtifact.dropLast(64) + []
        forged += fixture.otherKey.signature(for: forged[...])
        cases.append(
            refused("artifact naming the app's key, signed by another", Array(forged), .artifactRefused(.badSignature)))
        cases.append(
            refused("artifact without its signature", Array(validArtifact.dropLast(64)), .artifactRefused(.unsigned)))
        cases.append(
            refused(
                "artifact expired", fixture.artifact(created: now.addingTimeInterval(-86_400 * 60), expires: now),
                .artifactExpired))
        cases.append(
            refused(
                "artifact created beyond the clock skew",
                fixture.artifact(created: now.addingTimeInterval(301), expires: now.addingTimeInterval(86_400)),
                .artifactRefused(.notYetValid)))
        var raw = RawArtifactBytes()
        raw.formatVersion = 2
        cases.append(refused("artifact of format 2", raw.signed(), .artifactRefused(.unsupportedFormat)))
        raw = RawArtifactBytes()
        raw.members.insert((path: "notes.txt", kind: "notes", bytes: Array("hello".utf8)), at: 2)
        cases.append(
            refused(
                "artifact with an extra member of no known kind", raw.signed(), .artifactRefused(.unknownMemberKind)))
        raw = RawArtifactBytes()
        raw.trailing = Array("extra".utf8)
        cases.append(
            refused("artifact with bytes no member claims", raw.signed(), .artifactRefused(.memberLengthMismatch)))
        raw = RawArtifactBytes()
        raw.members.removeAll { $0.path == "routes.json" }
        cases.append(refused("artifact without routes.json", raw.signed(), .artifactRefused(.missingMember)))
        raw = RawArtifactBytes()
        raw.members.insert(raw.members[0], at: 0)
        cases.append(refused("artifact with a duplicate member", raw.signed(), .artifactRefused(.duplicateMember)))
        raw = RawArtifactBytes()
        raw.members.insert((path: "../evil.lua", kind: "lua", bytes: Array("x = 1".utf8)), at: 0)
        cases.append(refused("artifact with a traversal path", raw.signed(), .artifactRefused(.badPath)))
        // The bundle.
        cases.append(
            refused("a too-new minimum host version", fixture.artifact(minimumHostVersion: "6.1.0"), .hostTooOld))
        var members = fixture.next
        members.manifest = Array(
            String(decoding: members.manifest, as: UTF8.self).replacingOccurrences(of: "5.0.0", with: "7.0.0").utf8)
        cases.append(refused("a too-new minimum host version in the manifest", fixture.artifact(members), .hostTooOld))
        cases.append(
            refused(
                "a Lua compile error", fixture.artifact(withPolicies("group(\"login\", function(req, ctx)\n")),
                .bundleInvalid))
        cases.append(
            refused(
                "a rule that exceeds its budget while loading", fixture.artifact(withPolicies("while true do end\n")),
                .bundleInvalid))
        members = fixture.next
        members.lua["policies.lua"] = [0x66, 0xFF, 0x0A]
        cases.append(refused("a rule file that is not UTF-8", fixture.artifact(members), .bundleInvalid))
        members = fixture.next
        members.routes = Array("{}".utf8)
        cases.append(refused("a route table that does not decode", fixture.artifact(members), .bundleInvalid))
        cases.append(
            refused(
                "a failing self-test",
                fixture.artifact(withPolicies("group(\"login\", function(req, ctx) return nil end)\n")), .selfTestFailed
            ))
        cases.append(
            refused(
                "a failing invariant",
                fixture.artifact(
                    withPolicies(
                        fixture.policiesLua
                            + "interceptor { name = \"close-home\", route = \"home\", run = function(req, ctx) return reject(\"closed\", 403) end }\n"
                    )),
                .invariantFailed))
        return cases
    }
}
