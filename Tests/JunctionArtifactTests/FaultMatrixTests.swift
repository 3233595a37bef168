import Foundation
import JunctionArtifact
import Testing

/// Every single-bit flip and every truncation of a small artifact, and the attacks built
/// with the raw writer: none verifies, and each is refused with the reason its region
/// calls for.
@Suite struct FaultMatrixTests {
    typealias Code = ArtifactError.Code

    /// Which reasons a flip of each byte of `bytes` may be refused with, by region: the
    /// prefix's fields; the header's JSON, by the token the byte is in; the members; the signature.
    static func expectedReasons(for bytes: [UInt8]) -> [Set<Code>] {
        let headerLength = bytes[8..<12].reduce(0) { $0 << 8 | Int($1) }
        var reasons: [Set<Code>] = []
        reasons += Array(repeating: [.badMagic], count: 6)
        reasons += Array(repeating: [.unsupportedFormat], count: 2)
        reasons += Array(repeating: [.oversize, .truncated, .malformedHeader], count: 4)
        reasons += headerReasons(Array(bytes[12..<(12 + headerLength)]))
        // Member bytes and the signature are covered by the signature alone: the hashes
        // are never reached.
        reasons += Array(repeating: [.badSignature], count: bytes.count - 12 - headerLength)
        return reasons
    }

    /// Walks canonical JSON: a byte of structure or of a key can only break the JSON or
    /// name an unknown field; a byte of a value changes what is signed, unless it breaks
    /// the JSON or the value's form; the key id's value picks another key; a length's
    /// digits move where the signature is.
    static func headerReasons(_ header: [UInt8]) -> [Set<Code>] {
        var reasons: [Set<Code>] = []
        var index = 0
        var lastKey = ""
        var expectingValue = false
        while index < header.count {
            let byte = header[index]
            if byte == UInt8(ascii: "\"") {
                var end = index + 1
                while header[end] != UInt8(ascii: "\"") { end += (header[end] == UInt8(ascii: "\\")) ? 2 : 1 }
                let text = String(decoding: header[(index + 1)..<end], as: UTF8.self)
                let count = end - index + 1
                if expectingValue {
                    let set: Set<Code> =
                        lastKey == "key_id" ? [.unknownKey, .malformedHeader] : [.badSignature, .malformedHeader]
                    reasons += Array(repeating: set, count: count)
                    expectingValue = false
                } else {
                    reasons += Array(repeating: [.malformedHeader], count: count)
                    lastKey = text
                }
                index = end + 1
            } else if (0x30...0x39).contains(byte) {
                var end = index
                while (0x30...0x39).contains(header[end]) { end += 1 }
                let set: Set<Code> =
                    lastKey == "length"
                    ? [.truncated, .unsigned, .memberLengthMismatch, .malformedHeader]
                    : [.badSignature, .malformedHeader]
                reasons += Array(repeating: set, count: end - index)
                expectingValue = false
                index = end
            } else {
                if byte == UInt8(ascii: ":") { expectingValue = true }
                reasons.append([.malformedHeader])
                index += 1
            }
        }
        return reasons
    }

    static func code(of bytes: [UInt8]) -> Code? {
        do {
            _ = try Artifact(verifying: bytes, keyring: Fixtures.keyring, at: Fixtures.now)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func refusesEverySingleBitFlipWithItsRegionsReason() {
        let bytes = Fixtures.artifact
        let expected = Self.expectedReasons(for: bytes)
        #expect(expected.count == bytes.count)
        var cases = 0
        var seen: [Code: Int] = [:]
        for offset in bytes.indices {
            for bit in 0..<8 {
                var flipped = bytes
                flipped[offset] ^= 1 << bit
                let code = Self.code(of: flipped)
                cases += 1
                if let code { seen[code, default: 0] += 1 }
                #expect(
                    code.map { expected[offset].contains($0) } == true,
                    "byte \(offset) bit \(bit): \(code.map(String.init(describing:)) ?? "accepted"), expected one of \(expected[offset].map(\.name).sorted())"
                )
            }
        }
        #expect(cases == bytes.count * 8)
        #expect(cases >= 10_000)
        // Every reason the regions allow for turns up somewhere.
        for code in [
            Code.badMagic, .unsupportedFormat, .oversize, .truncated, .malformedHeader, .unknownKey, .badSignature,
            .memberLengthMismatch,
        ] {
            #expect(seen[code, default: 0] > 0, "\(code) never seen")
        }
    }

    @Test func refusesEveryTruncationAsTruncatedOrUnsignedWhereTheSignatureStarts() {
        let bytes = Fixtures.artifact
        for length in 0..<bytes.count {
            let expected: Code = length == bytes.count - 64 ? .unsigned : .truncated
            #expect(Self.code(of: Array(bytes.prefix(length))) == expected, "length \(length)")
        }
    }

    @Test func refusesEveryAppendedByteCount() {
        for extra in 1...64 {
            #expect(
                Self.code(of: Fixtures.artifact + [UInt8](repeating: 0, count: extra)) == .memberLengthMismatch,
                "\(extra) extra bytes")
        }
    }

    @Test func refusesEverySignatureByteReplacedByEveryValue() {
        let bytes = Fixtures.artifact
        let start = bytes.count - 64
        for offset in [start, start + 31, start + 32, bytes.count - 1] {
            for value in UInt8.min...UInt8.max where value != bytes[offset] {
                var changed = bytes
                changed[offset] = value
                #expect(Self.code(of: changed) == .badSignature, "byte \(offset) = \(value)")
            }
        }
    }

    @Test func acceptsTheUnchangedArtifact() {
        #expect(Self.code(of: Fixtures.artifact) == nil)
    }

    @Test func theMatrixHasAtLeastTenThousandCases() {
        let bytes = Fixtures.artifact.count
        #expect(bytes == 1_322, "docs/artifacts.md quotes this artifact's figures")
        // Flips, truncations, appended counts, signature bytes, and the raw writer's table.
        let total = bytes * 8 + bytes + 64 + 4 * 255 + ArtifactVerificationTests.signedButWrong.count
        #expect(total >= 10_000, "\(total)")
    }
}
