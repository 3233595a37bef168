import JunctionCore
import JunctionLua
import Testing

/// The sandbox answers alike on every Lua 5.4 release it is built with (5.4.4 from the
/// system, 5.4.7 from its release tarball in `scripts/test-lua-release`): where releases
/// differ, the sandbox takes the later, stricter answer on all of them. Each row runs on
/// whichever Lua this build links; `scripts/test` runs this suite on both.
@Suite struct LuaReleaseAgreementTests {
    /// What `expression` evaluates to, as `tostring` shows it, or its error message.
    static func answer(_ expression: String) throws -> String {
        let engine = try RuleEngine(sources: [
            RuleSource(
                name: "agree.lua",
                text: """
                    function f()
                      local ok, result = pcall(function() return \(expression) end)
                      return (ok and 'ok: ' or 'error: ') .. tostring(result)
                    end
                    """)
        ])
        let value = try engine.evaluate("f").value
        guard case .string(let text) = value else { return "not a string: \(value)" }
        return text
    }

    /// Collects `utf8.codes(s, lax)` as "position:code" pairs.
    static func codes(_ literal: String, lax: Bool = false) -> String {
        """
        (function() local t = {} for p, c in utf8.codes(\(literal), \(lax)) do t[#t + 1] = p .. ':' .. c end \
        return table.concat(t, ' ') end)()
        """
    }

    @Test(arguments: [
        // Well-formed text iterates alike everywhere.
        (codes("'hé€𝄞'"), "ok: 1:104 2:233 4:8364 7:119070"),
        (codes("''"), "ok: "),
        // A leading continuation byte: 5.4.4 skipped it, 5.4.6+ refuse the argument.
        (codes("'\\x80abc'"), "error: agree.lua:2: bad argument #1 to 'codes' (invalid UTF-8 code)"),
        (codes("'\\x80'", lax: true), "error: agree.lua:2: bad argument #1 to 'codes' (invalid UTF-8 code)"),
        // A stray continuation byte after a character: 5.4.4 stepped over it, 5.4.6+ raise.
        (codes("'a\\x80b'"), "error: agree.lua:2: invalid UTF-8 code"),
        (codes("'\\u{E9}\\x80'"), "error: agree.lua:2: invalid UTF-8 code"),
        (codes("'\\u{20AC}\\x80\\x80'", lax: true), "error: agree.lua:2: invalid UTF-8 code"),
        // Malformed sequences were errors on every release.
        (codes("'a\\xC3'"), "error: agree.lua:2: invalid UTF-8 code"),
        (codes("'\\xED\\xA0\\x80'"), "error: agree.lua:2: invalid UTF-8 code"),
        // Lax accepts surrogates and long forms alike everywhere.
        (codes("'\\xED\\xA0\\x80'", lax: true), "ok: 1:55296"),
        // table.insert's bad position: 5.4.4 blamed argument #1, 5.4.6+ name #2, as the
        // sandbox's charged insert does on all.
        ("table.insert({}, 5, 1)", "error: agree.lua:2: bad argument #2 to 'insert' (position out of bounds)"),
        // Neighbours that did not change.
        ("utf8.len('a\\x80b')", "ok: nil"),
        ("utf8.codepoint('\\u{E9}', 1)", "ok: 233"),
    ])
    func answersAlikeOnEveryRelease(_ expression: String, _ expected: String) throws {
        let answer = try Self.answer(expression)
        #expect(answer == expected, "on \(LuaRelease.name)")
    }

    /// The release under test is one the sandbox is tested on.
    @Test func runsOnATestedRelease() {
        #expect(["Lua 5.4.4", "Lua 5.4.6", "Lua 5.4.7", "Lua 5.4.8"].contains(LuaRelease.name), "\(LuaRelease.name)")
    }
}
