import JunctionCore
import JunctionFuzzTargets
import JunctionLua
import Testing

/// The sandbox's pattern functions against Lua 5.4's own, on thousands of seeded random
/// calls: every result, and every error message, must be the same bytes. The reference is
/// the `lua-pattern` fuzz target's, ``LuaPatternHarness``, with budgets no call reaches.
@Suite struct PatternDifferentialTests {
    @Test(arguments: [1 as UInt64, 2, 3, 4])
    func agreesWithLuaOnRandomCalls(seed: UInt64) throws {
        let harness = try LuaPatternHarness(
            limits: SandboxLimits(instructions: 500_000_000, decisionTime: .seconds(120)))
        var generator = PatternCaseGenerator(seed: seed)
        var mismatches = 0
        for _ in 0..<5_000 {
            let (function, arguments) = generator.call()
            let mine = try harness.sandboxed(function, arguments).get()
            let lua = harness.original(function, arguments)
            guard mine != lua else { continue }
            mismatches += 1
            if mismatches <= 10 {
                Issue.record(
                    """
                    \(LuaPatternHarness.describe(function, arguments)):
                      sandbox: \(String(decoding: mine, as: UTF8.self))
                      Lua:     \(String(decoding: lua, as: UTF8.self))
                    """)
            }
        }
        #expect(mismatches == 0)
    }
}
