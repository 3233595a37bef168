import Foundation
import JunctionFuzzTargets
import Testing

/// Every fuzz target's seeds and saved regression inputs, replayed through the target
/// without the fuzzer: a bug the fuzzer found stays fixed, and the seeds keep every
/// property on the inputs they were chosen for.
@Suite struct FuzzReplayTests {
    /// The repository's `Fuzz` folder.
    static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// The files in `Fuzz/KIND/TARGET`, sorted.
    static func inputs(_ kind: String, of target: FuzzTarget) -> [URL] {
        let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(target.name)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test(arguments: FuzzTargets.all.map(\.name))
    func everySeedAndRegressionInputKeepsTheProperties(target name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        let seeds = Self.inputs("Corpus", of: target)
        #expect(!seeds.isEmpty, "every target has seeds in Fuzz/Corpus/\(name)")
        for file in seeds + Self.inputs("Regressions", of: target) {
            let bytes = try [UInt8](Data(contentsOf: file))
            do {
                try target.check(bytes)
            } catch {
                Issue.record("\(file.lastPathComponent): \(error)")
            }
        }
    }

    @Test func targetNamesAreUniqueAndLowercase() {
        let names = FuzzTargets.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "-" } })
    }
}
