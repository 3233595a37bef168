import Junction
import Testing

/// One decider shared by many tasks: each decision borrows its own engine, and every
/// answer is the one a lone caller gets.
@Suite struct DeciderConcurrencyTests {
    @Test func concurrentDecisionsAgreeWithSequentialOnes() async throws {
        let decider = DeciderTests.decider
        let cases: [(String, ContextSnapshot)] = [
            ("myapp://moments/3", DeciderTests.user), ("myapp://moments/3", DeciderTests.guest),
            ("myapp://old/moments/5", DeciderTests.user), ("myapp://item/700", DeciderTests.user),
            ("myapp://nowhere", DeciderTests.user), ("myapp://spin", DeciderTests.user),
            ("myapp://action/share?title=x", DeciderTests.user),
        ]
        let expected = cases.map { DeciderTests.summary(decider.decide(RouteRequest($0.0), context: $0.1)) }
        let results = await withTaskGroup(of: (Int, String).self) { group in
            for round in 0..<8 {
                for (index, (url, context)) in cases.enumerated() {
                    group.addTask {
                        _ = round
                        return (index, DeciderTests.summary(decider.decide(RouteRequest(url), context: context)))
                    }
                }
            }
            var collected: [(Int, String)] = []
            for await result in group { collected.append(result) }
            return collected
        }
        #expect(results.count == cases.count * 8)
        for (index, summary) in results { #expect(summary == expected[index]) }
        #expect(
            DeciderTests.bundle.engines.enginesCreated < cases.count * 8,
            "engines are reused, not compiled per decision")
    }
}
