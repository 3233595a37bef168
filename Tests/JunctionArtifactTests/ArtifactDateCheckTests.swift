import Foundation
import JunctionArtifact
import Testing

/// `dates: .skipped` leaves out `created` and `expires` and nothing else: a persisted or
/// embedded artifact past its expiry still verifies, and every other check still refuses.
@Suite struct ArtifactDateCheckTests {
    static let long = Date(timeIntervalSince1970: 4_000_000_000)
    static let early = Date(timeIntervalSince1970: 1_000_000_000)

    static func refusal(_ bytes: [UInt8], keyring: Keyring = Fixtures.keyring, dates: ArtifactDateCheck) -> String? {
        ArtifactBuilderTests.message { try Artifact(verifying: bytes, keyring: keyring, dates: dates) }
    }

    @Test func datesAreCheckedAtTheGivenTime() {
        #expect(Self.refusal(Fixtures.artifact, dates: .at(Fixtures.now)) == nil)
        #expect(Self.refusal(Fixtures.artifact, dates: .at(Self.long))?.hasPrefix("expired: ") == true)
        #expect(Self.refusal(Fixtures.artifact, dates: .at(Self.early))?.hasPrefix("notYetValid: ") == true)
    }

    @Test func skippedDatesAcceptAnArtifactPastItsExpiryOrBeforeItsCreation() throws {
        #expect(Self.refusal(Fixtures.artifact, dates: .skipped) == nil)
        let artifact = try Artifact(verifying: Fixtures.artifact, keyring: Fixtures.keyring, dates: .skipped)
        #expect(artifact.header.expires == Fixtures.expires)
    }

    @Test func skippedDatesStillCheckTheKeyTheSignatureAndTheBytes() {
        var flipped = Fixtures.artifact
        flipped[flipped.count - 1] ^= 0x01
        #expect(Self.refusal(flipped, dates: .skipped)?.hasPrefix("badSignature: ") == true)
        #expect(
            Self.refusal(Fixtures.artifact, keyring: Keyring([]), dates: .skipped)?.hasPrefix("unknownKey: ") == true)
        #expect(Self.refusal(Array(Fixtures.artifact.dropLast(10)), dates: .skipped) != nil)
    }
}
