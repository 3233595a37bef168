import Foundation
import Junction
import JunctionShipping
import Testing

/// The device fault matrix driven through the installer: a device running update seq 5 is
/// offered every faulty update; none activates, each is refused with its reason (or, once
/// an identity was remembered, as `previouslyFailed`), and seq 5 keeps deciding.
@Suite struct InstallerFaultMatrixTests {
    @Test func noFaultActivatesAndThePreviousBundleKeepsDeciding() async throws {
        let directory = InstallerFixture.directory()
        defer { InstallerFixture.remove(directory) }
        let installer = try InstallerFixture.launch(directory)
        let installed = await installer.install(
            pointer: InstallerFixture.pointer5, at: InstallerFixture.now,
            fetch: InstallerFixture.Server(InstallerFixture.artifact5).fetch)
        #expect(installed == .installed(InstallerFixture.identity5))
        let active = installer.policy.current

        // Every named attack and every truncation; of the single-bit flips, every ninth, so each
        // bit position and every region of both files is hit while the suite stays fast (the
        // acceptance matrix runs all of them). Cases that assume a device state other than
        // "seq 5 accepted, nothing refused" stay with the acceptance matrix.
        let flips = (DeviceFaultCases.pointerFlips + DeviceFaultCases.artifactFlips).enumerated()
            .filter { $0.offset % 9 == 0 }.map(\.element)
        let cases =
            (flips + DeviceFaultCases.pointerTruncations + DeviceFaultCases.artifactTruncations
            + DeviceFaultCases.named)
            .filter { $0.accepted == DeviceFaultCases.accepted && $0.failed.isEmpty }
        #expect(cases.count >= 3_000)
        var rememberedAgain = 0
        for fault in cases {
            let refusedBefore = await installer.refused
            let event = await installer.install(
                pointer: fault.pointer, at: InstallerFixture.now, fetch: InstallerFixture.Server(fault.artifact).fetch)
            let result: DeviceFaultCase.Result
            switch event {
            case .unchanged: result = .unchanged
            case .failed(.refused(let refusal)): result = .refused(refusal)
            default: result = .accepted("\(event)")
            }
            if case .refused(let refusal) = result, refusal.code == .previouslyFailed,
                let identity = refusal.identity, refusedBefore.contains(identity)
            {
                rememberedAgain += 1
            } else {
                #expect(fault.holds(for: result), "\(fault.name): \(event), expected \(fault.expected)")
            }
            #expect(installer.policy.current === active, "\(fault.name) changed the active snapshot")
        }
        #expect(InstallerFixture.decidesUnderSeq5(installer.policy))
        #expect(await installer.status(at: InstallerFixture.now).active == InstallerFixture.identity5)
        // A restart still launches seq 5: nothing a fault did reached the store's current update.
        let restarted = try InstallerFixture.launch(directory)
        #expect(restarted.policy.current.identity == InstallerFixture.identity5)
        print("installer fault matrix: \(cases.count) cases, none activated, \(rememberedAgain) refused as remembered")
    }
}
