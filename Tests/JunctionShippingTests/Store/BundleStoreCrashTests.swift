import Foundation
import Junction
import JunctionShipping
import JunctionTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Real crashes: `JunctionStoreProbe` commits updates through the real file system and is
/// killed with SIGKILL at seeded points; after each kill a fresh store must load the last
/// update the probe reported or the one after it — never a mix — and its last-known-good.
@Suite struct BundleStoreCrashTests {
    /// The probe binary beside the test bundle (SwiftPM builds it for this target).
    static var probe: URL {
        let products =
            Bundle.main.bundleURL.lastPathComponent.hasSuffix(".xctest")
            ? Bundle.main.bundleURL.deletingLastPathComponent()
            : Bundle.main.bundleURL
        return products.appendingPathComponent("JunctionStoreProbe")
    }

    @Test func aProbeKilledAtRandomPointsAlwaysLeavesTheOldUpdateOrTheNew() throws {
        let directory = try StoreFixture.directory()
        defer { StoreFixture.remove(directory) }
        var random = SplitMix64(seed: 14)
        var previous: UInt64 = 0
        for run in 0..<30 {
            // The probe prints `op` before each file operation; a commit makes about 20.
            let killAfter = 1 + random.next(below: 60)
            let process = Process()
            process.executableURL = Self.probe
            process.arguments = [directory, String(run)]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            var text = ""
            var operations = 0
            while operations < killAfter {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                let piece = String(decoding: chunk, as: UTF8.self)
                text += piece
                operations += piece.split(separator: "\n").filter { $0 == "op" }.count
            }
            kill(process.processIdentifier, SIGKILL)
            text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "run \(run): \(text.suffix(200))")

            let reported =
                text.split(separator: "\n").compactMap { line in
                    line.hasPrefix("committed ") ? UInt64(line.dropFirst("committed ".count)) : nil
                }.last ?? previous
            let state = BundleStore(directory: directory).load()
            #expect(state.problems.isEmpty, "run \(run): \(state.problems)")
            let seq = state.current?.identity.seq ?? 0
            #expect(seq == reported || seq == reported + 1, "run \(run): loaded seq \(seq), probe reported \(reported)")
            // Compared as booleans: a failure prints the summary, not megabytes of bytes.
            let exact =
                seq == 0
                || (state.current == StoreFixture.probeUpdate(seq: seq) && state.ratchet == state.current?.identity)
            let lastKnownGood = seq < 2 || state.lastKnownGood == StoreFixture.probeUpdate(seq: seq - 1)
            #expect(exact && lastKnownGood, "run \(run): \(StoreFixture.summary(state))")
            previous = seq
        }
        // A kill after 30 operations comes after at least one whole commit: with this seed,
        // about half the runs get that far, so the store moved on many times.
        #expect(previous > 10, "the probe made progress across runs: seq \(previous)")
    }
}
