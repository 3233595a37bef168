import JunctionCore
import Testing

/// The sandbox's pattern functions against Lua 5.4's own, on thousands of seeded random
/// calls: every result, and every error message, must be the same bytes.
@Suite struct PatternDifferentialTests {
    /// Renders arguments for a failure message, bytes as a Lua string literal would show them.
    private static func describe(_ arguments: [RuleValue]) -> String {
        arguments.map { argument in
            guard case .bytes(let bytes) = argument else { return "\(argument)" }
            return "\""
                + bytes.map { byte in
                    (0x20..<0x7F).contains(byte) && byte != 0x22 && byte != 0x5C
                        ? String(UnicodeScalar(byte)) : "\\" + String(byte)
                }.joined() + "\""
        }.joined(separator: ", ")
    }

    @Test(arguments: [1 as UInt64, 2, 3, 4])
    func agreesWithLuaOnRandomCalls(seed: UInt64) throws {
        let harness = try PatternHarness()
        var generator = PatternCaseGenerator(seed: seed)
        var mismatches = 0
        for _ in 0..<5_000 {
            let (function, arguments) = generator.call()
            let mine = try harness.sandboxed(function, arguments)
            let lua = harness.original(function, arguments)
            guard mine != lua else { continue }
            mismatches += 1
            if mismatches <= 10 {
                Issue.record(
                    """
                    string.\(function)(\(Self.describe(arguments))):
                      sandbox: \(String(decoding: mine, as: UTF8.self))
                      Lua:     \(String(decoding: lua, as: UTF8.self))
                    """)
            }
        }
        #expect(mismatches == 0)
    }
}
