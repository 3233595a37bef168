import Testing

@testable import JunctionLua

/// What an engine's Lua heap keeps once its bundle is sealed.
@Suite struct SandboxHeapTests {
    /// Sealing lets go of the code that only loading needs; the rule API's declaring
    /// functions still answer a rule that calls them late, at the rule's own line.
    @Test(arguments: [
        ("redirect { from = 'myapp://a', to = 'myapp://b' }", "redirect"),
        ("interceptor { name = 'late', all = true, run = function() end }", "interceptor"),
        ("group('g', function() end)", "group"),
        ("fallback(function() end)", "fallback"),
    ])
    func declaringWhileRulesRunNamesTheRulesLine(call: String, name: String) throws {
        let engine = try RuleEngine(sources: [RuleSource(name: "late.lua", text: "function late()\n\n  \(call)\nend")])
        let error = #expect(throws: LuaError.self) { try engine.evaluate("late") }
        #expect(error?.description == "late.lua:3: \(name): rules are declared while the bundle loads, not while they run")
    }
}
