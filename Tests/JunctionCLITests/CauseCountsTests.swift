import JunctionTooling
import Testing

@testable import JunctionCLI

/// A diff's changes by cause: ranked, merged across the parallel shares as if counted in one
/// pass, and bounded however many distinct causes a corpus makes.
@Suite struct CauseCountsTests {
    static func rule(_ number: Int) -> DivergenceCause {
        DivergenceCause(kind: .rule, stage: .global, name: "rule-\(number)", location: "rules.lua:\(number)")
    }

    @Test func ranksMostFrequentFirstAndTiesInTheOrderFirstSeen() {
        var counts = CauseCounts()
        for number in [3, 1, 2, 1, 2, 4] { counts.add(Self.rule(number)) }
        #expect(counts.ranked.map(\.cause) == [Self.rule(1), Self.rule(2), Self.rule(3), Self.rule(4)])
        #expect(counts.ranked.map(\.count) == [2, 2, 1, 1])
        #expect(counts.other == 0)
    }

    @Test func keepsAtMostFiftyCausesAndCountsTheRestAsOther() {
        var counts = CauseCounts()
        for number in 0..<10_000 { counts.add(Self.rule(number)) }
        // A cause kept goes on counting after the limit is reached.
        counts.add(Self.rule(0))
        #expect(counts.limit == 50)
        #expect(counts.ranked.count == 50)
        #expect(counts.ranked.first?.cause == Self.rule(0))
        #expect(counts.ranked.first?.count == 2)
        #expect(counts.other == 10_000 - 50)
        #expect(counts.ranked.map(\.count).reduce(0, +) + counts.other == 10_001)
    }

    /// Shares of one corpus — each a batch, counted without a limit — merged in order,
    /// count exactly what one pass over the corpus counts.
    @Test(arguments: [1, 2, 3, 7, 64])
    func mergedSharesCountWhatOnePassCounts(shares: Int) {
        let causes = (0..<500).map { $0 % 7 == 0 ? 1_000 + $0 % 5 : $0 % 40 }
        var whole = CauseCounts(limit: 30)
        for number in causes { whole.add(Self.rule(number)) }
        var merged = CauseCounts(limit: 30)
        let size = (causes.count + shares - 1) / shares
        for start in stride(from: 0, to: causes.count, by: size) {
            var share = CauseCounts(limit: .max)
            for number in causes[start..<min(start + size, causes.count)] { share.add(Self.rule(number)) }
            merged.merge(share)
        }
        #expect(merged.ranked.map(\.cause) == whole.ranked.map(\.cause))
        #expect(merged.ranked.map(\.count) == whole.ranked.map(\.count))
        #expect(merged.other == whole.other)
        #expect(merged.ranked.count == 30)
        #expect(merged.ranked.map(\.count).reduce(0, +) + merged.other == causes.count)
    }

    @Test func aShareCountedAsOtherStaysOther() {
        var share = CauseCounts(limit: 1)
        for number in [1, 2, 2] { share.add(Self.rule(number)) }
        var merged = CauseCounts()
        merged.merge(share)
        #expect(merged.ranked.map(\.cause) == [Self.rule(1)])
        #expect(merged.other == 2)
    }
}
