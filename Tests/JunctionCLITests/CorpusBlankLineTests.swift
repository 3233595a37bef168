import JunctionTooling
import Foundation
import Testing

@testable import JunctionCLI

/// Issue 27, item 8: a gzip corpus of blank lines decoded at ~4 MB/s of CPU (1 MB
/// compressed, over 120 s), each empty line costing a slice, a `String` and a trim. Empty
/// lines are now stepped over a byte at a time, and blank ones make no text.
@Suite struct CorpusBlankLineTests {
    @Test func emptyLinesAreSkippedWithoutLookingAtEachAndTheLineNumbersHold() throws {
        let folder = try ShippingFixtures.folder()
        let plain = folder + "/blank.txt"
        let empty = 16 << 20
        var bytes = Array("myapp://user/1\n".utf8)
        bytes += [UInt8](repeating: 0x0A, count: empty)
        bytes += Array(String(repeating: "\r\n", count: 1_000).utf8)
        bytes += Array("  \t\nmyapp://user/2".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: plain))
        try DiffCommandTests.gzip(plain)
        try FileManager.default.removeItem(atPath: plain)
        let compressed = try FileManager.default.attributesOfItem(atPath: plain + ".gz")[.size] as? Int
        #expect((compressed ?? .max) < 100_000)

        let clock = ContinuousClock()
        let started = clock.now
        var reader = try CorpusReader(path: plain + ".gz")
        var entries: [CorpusEntry] = []
        while true {
            let (batch, failure) = reader.nextBatch()
            #expect(failure.map { "\($0)" } == nil)
            if batch.isEmpty { break }
            entries += batch
        }
        #expect(entries.map(\.url) == ["myapp://user/1", "myapp://user/2"])
        #expect(entries.map(\.line) == [1, empty + 1_000 + 3])
        #expect(reader.lines == empty + 1_000 + 3)
        // The work: the two URLs and the line of spaces, not the 16 million empty lines.
        #expect(reader.examined == 3)
        // Generous, for a loaded machine: alone, a debug build takes under half a second
        // (it took about 14 s); the count above is the proof.
        #expect(clock.now - started < .seconds(60))
    }
}
