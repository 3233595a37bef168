import Foundation
import JunctionArtifact
import Testing

/// Issue 27, item 8: an artifact named `exa\u{202E}elpm` verified and printed raw, showing as
/// "example". A header's name, version and minimum host version may hold no control
/// character, line separator or bidi control — refused when building and when verifying,
/// and named escaped in the refusal.
@Suite struct ArtifactNameControlCharacterTests {
    /// One of each kind: C0 (NUL, tab, newline, ESC), DEL, C1 (NEL, the last), the line and
    /// paragraph separators, the bidi embeddings and overrides, the isolates.
    static let scalars: [UInt32] = [
        0x00, 0x09, 0x0A, 0x1B, 0x7F, 0x85, 0x9F, 0x2028, 0x2029, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066,
        0x2067, 0x2068, 0x2069,
    ]

    static func name(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    @Test(arguments: scalars)
    func isRefusedInEveryHeaderTextWhenBuildingAndVerifying(value: UInt32) {
        let scalar = Unicode.Scalar(value)!
        let text = "exa" + String(Character(scalar)) + "elpm"
        let escaped = #"exa\u{\#(String(value, radix: 16, uppercase: true))}elpm"#
        for field in ["name", "version", "minimum_host_version"] {
            let expected =
                #"malformedHeader: the header field \#(field) "\#(escaped)" holds the control character \#(Self.name(value)); it is one line of visible characters"#
            var builder = Fixtures.builder
            var raw = RawArtifact()
            switch field {
            case "name":
                builder.name = text
                raw.name = text
            case "version":
                builder.version = text
                raw.version = text
            default:
                builder.minimumHostVersion = text
                raw.minimumHostVersion = text
            }
            #expect(
                ArtifactBuilderTests.message { try builder.build(signedWith: Fixtures.key) } == expected, "\(field)")
            #expect(ArtifactVerificationTests.refusal(raw.signed()) == expected, "\(field)")
            #expect(
                ArtifactBuilderTests.message { try Artifact.inspect(raw.signed()) } == expected, "inspect \(field)")
        }
    }

    @Test func visibleUnicodeIsStillAName() throws {
        var builder = Fixtures.builder
        builder.name = "exämple-日本"
        let bytes = try builder.build(signedWith: Fixtures.key)
        #expect(try Artifact(verifying: bytes, keyring: Fixtures.keyring, at: Fixtures.now).header.name == "exämple-日本")
    }
}
