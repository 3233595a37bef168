import Foundation
import Junction
import JunctionShipping
import JunctionCore
import Testing

/// The device's fault matrix: over 10,000 updates, each a fault of one valid update, and
/// none activates; each is refused with the reason it calls for.
@Suite struct DeviceFaultMatrixTests {
    static let acceptance = UpdateAcceptance(policy: ShippingFixture.policy)

    @Test func refusesEveryFaultWithItsReason() {
        let cases = DeviceFaultCases.all
        #expect(cases.count >= 10_000)
        var seen: Set<UpdateRefusal.Code> = []
        var checks: [DeviceFaultCase.CheckKey: Result<PointerCheck, UpdateRefusal>] = [:]
        for fault in cases {
            let result = fault.run(Self.acceptance, checks: &checks)
            if case .refused(let refusal) = result { seen.insert(refusal.code) }
            #expect(fault.holds(for: result), "\(fault.name): \(result), expected \(fault.expected)")
        }
        // Every check of the pipeline refuses something.
        let every: [UpdateRefusal.Code] = [
            .pointerOversize, .pointerMalformed, .pointerUnsigned, .pointerUnknownKey, .pointerBadSignature,
            .pointerUnsupportedFormat, .wrongChannel, .staleSeq, .conflictingSeq, .previouslyFailed, .pointerExpired,
            .pointerFromFuture, .artifactLengthMismatch, .artifactHashMismatch, .artifactRefused(.oversize),
            .artifactRefused(.unknownKey), .artifactRefused(.badSignature), .artifactRefused(.unsigned),
            .artifactRefused(.notYetValid), .artifactRefused(.unsupportedFormat), .artifactRefused(.unknownMemberKind),
            .artifactRefused(.memberLengthMismatch), .artifactRefused(.missingMember),
            .artifactRefused(.duplicateMember), .artifactRefused(.badPath), .artifactExpired, .hostTooOld,
            .bundleInvalid, .selfTestFailed, .invariantFailed,
        ]
        for code in every { #expect(seen.contains(code), "\(code) never seen") }
    }

    @Test func acceptsTheUpdateTheFaultsAreMadeFrom() throws {
        let valid = DeviceFaultCase(
            name: "valid", pointer: DeviceFaultCases.validPointer, artifact: DeviceFaultCases.validArtifact,
            expected: .unchanged)
        #expect(
            valid.run(Self.acceptance)
                == .accepted("shop@1.4.0 seq 6 (sha256 \(Self.short(DeviceFaultCases.validArtifact)))"))
    }

    static func short(_ artifact: [UInt8]) -> String {
        let hash = ShippingFixture.hash(artifact)
        return "\(hash.prefix(4))…\(hash.suffix(4))"
    }
}
