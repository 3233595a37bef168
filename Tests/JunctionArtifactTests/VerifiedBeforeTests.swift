import Foundation
import JunctionArtifact
import JunctionCore
import Testing

/// Re-opening bytes verified before (a device's stamped update at launch) skips exactly the
/// signature — and for an artifact the members' hashes and the header's canonical form —
/// and nothing else: structure, key
/// and fields are refused as ever. What catches changed bytes is the caller's SHA-256 check
/// against what its stamp binds.
@Suite struct VerifiedBeforeTests {
    static func artifact(_ bytes: [UInt8], verifiedBefore: Bool, keyring: Keyring = Fixtures.keyring) -> String? {
        ArtifactBuilderTests.message {
            try Artifact(
                verifying: bytes, keyring: keyring, dates: .skipped, limits: .default, verifiedBefore: verifiedBefore)
        }
    }

    static func pointer(_ bytes: [UInt8], verifiedBefore: Bool, keyring: Keyring = Fixtures.keyring) -> String? {
        do {
            _ = try ChannelPointer(verifying: bytes, keyring: keyring, signatureVerifiedBefore: verifiedBefore)
            return nil
        } catch { return error.description }
    }

    /// The artifact with one byte flipped at `offset` from its end (negative) or start.
    static func flipped(_ bytes: [UInt8], at offset: Int) -> [UInt8] {
        var bytes = bytes
        bytes[offset < 0 ? bytes.count + offset : offset] ^= 0x01
        return bytes
    }

    @Test func anArtifactsSignatureAndMemberHashesAreWhatIsSkipped() throws {
        let good = Fixtures.artifact
        #expect(Self.artifact(good, verifiedBefore: true) == nil)
        let badSignature = Self.flipped(good, at: -1)
        #expect(Self.artifact(badSignature, verifiedBefore: false)?.hasPrefix("badSignature") == true)
        #expect(Self.artifact(badSignature, verifiedBefore: true) == nil)
        // A member's byte: the signature would catch it, and its hash; neither is checked.
        let lastMember = good.count - 64 - 2
        let changedMember = Self.flipped(good, at: lastMember)
        #expect(Self.artifact(changedMember, verifiedBefore: false) != nil)
        #expect(Self.artifact(changedMember, verifiedBefore: true) == nil)
    }

    /// The header's one byte form was checked when the bytes were verified in full; a
    /// header written otherwise is refused then, and not written again to compare after.
    @Test func anArtifactsHeaderFormIsSkippedToo() throws {
        let good = Fixtures.artifact
        let headerLength = good[8..<12].reduce(0) { $0 << 8 | Int($1) }
        // A space after the header's opening brace, and its length one more.
        var spaced = Array(good[..<8])
        spaced += withUnsafeBytes(of: UInt32(headerLength + 1).bigEndian, Array.init)
        spaced += [good[12], UInt8(ascii: " ")] + good[13...]
        #expect(Self.artifact(spaced, verifiedBefore: false)?.contains("not in canonical form") == true)
        #expect(Self.artifact(spaced, verifiedBefore: true) == nil)
    }

    @Test func anArtifactsStructureAndKeyAreCheckedStill() {
        let good = Fixtures.artifact
        #expect(Self.artifact(Array(good.prefix(good.count - 10)), verifiedBefore: true) != nil)
        #expect(Self.artifact(Array(good.prefix(8)), verifiedBefore: true) != nil)
        let stranger = Keyring([Fixtures.otherKey.publicKey])
        #expect(Self.artifact(good, verifiedBefore: true, keyring: stranger)?.hasPrefix("unknownKey") == true)
    }

    @Test func aPointersSignatureAndFormAreWhatIsSkipped() throws {
        let good = ChannelPointerTests.file
        #expect(Self.pointer(good, verifiedBefore: true) == nil)
        // Another key's signature over the same fields: valid base64, 64 bytes, wrong.
        let forged = ChannelPointerTests.signing(ChannelPointerTests.fields, with: Fixtures.otherKey)
        #expect(Self.pointer(forged, verifiedBefore: false)?.contains("does not verify") == true)
        #expect(Self.pointer(forged, verifiedBefore: true) == nil)
        let stranger = Keyring([Fixtures.otherKey.publicKey])
        #expect(Self.pointer(good, verifiedBefore: true, keyring: stranger)?.contains("not in the keyring") == true)
        // Written otherwise than canonically: refused in full, its form not checked again.
        let spaced = [UInt8(ascii: "{"), UInt8(ascii: " ")] + good.dropFirst()
        #expect(Self.pointer(spaced, verifiedBefore: false)?.contains("canonical form") == true)
        #expect(Self.pointer(spaced, verifiedBefore: true) == nil)
        var fields = ChannelPointerTests.fields
        fields["format"] = .int(99)
        let newer = ChannelPointerTests.signing(fields)
        #expect(Self.pointer(newer, verifiedBefore: true)?.contains("format") == true)
    }
}
