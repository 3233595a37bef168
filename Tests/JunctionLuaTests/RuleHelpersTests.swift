import JunctionCore
import JunctionLua
import Logging
import Testing

@Suite struct RuleHelpersTests {
    static func run(_ body: String, arguments: [RuleValue] = []) throws -> RuleValue {
        let engine = try RuleEngine(sources: [RuleSource(name: "helpers.lua", text: "function f(a, b)\n\(body)\nend")])
        return try engine.evaluate("f", arguments: arguments).value
    }

    /// `version.compare` reads what apps ship by ``SemanticVersion``'s grammar (whose
    /// table is in SemanticVersionTests): any number of parts, a leading v, build numbers
    /// after + or in parentheses, pre-releases in Semantic Versioning's order.
    @Test(arguments: [
        ("5.2.0", "5.10.1", -1), ("5.10.1", "5.2.0", 1), ("5.2", "5.2.0", 0), ("6.0.0-beta.2", "6.0.0", -1),
        ("1.0.0+a", "1.0.0+b", 0), ("6.0.1.4", "6.0.1", 1), ("6.2", "6.0.1.4", 1), ("v6.0.1", "6.0.1", 0),
        ("6.0.1 (1234)", "6.0.1(99)", 0), ("6.0.1+1234", "6.0.2", -1), ("5.2.0.0", "5.2", 0),
        ("1.0.0-alpha.beta", "1.0.0-alpha.1", 1), ("5.02", "5.10", -1),
    ])
    func comparesVersionsNumerically(_ a: String, _ b: String, _ order: Int) throws {
        #expect(
            try Self.run("return version.compare(a, b)", arguments: [.string(a), .string(b)]) == .int(Int64(order)))
    }

    /// What is not a version is an error at the rule's line that names the text, the
    /// place and what was expected; a number says to quote it.
    @Test(arguments: [
        (
            "version.compare('5.x', '1')",
            #"helpers.lua:2: version.compare: "5.x" is not a version: expected a number at byte 3, found "x"; "#
                + "versions read like 6.2, v6.0.1, 6.0.1-beta.2 or 6.0.1 (1234)"
        ),
        (
            "version.compare('1', '6.0b2')",
            #"helpers.lua:2: version.compare: "6.0b2" is not a version: expected ".", "-", "+", "(" or the end "#
                + #"at byte 4, found "b"; versions read like 6.2, v6.0.1, 6.0.1-beta.2 or 6.0.1 (1234)"#
        ),
        (
            "version.compare(5.2, '1')",
            #"helpers.lua:2: version.compare(a, b) takes two version strings such as "5.2.0"; argument 1 is "#
                + "the number 5.2; quote versions where they are written (in YAML, 5.2 alone is a number)"
        ),
        (
            "version.compare('1', 6)",
            #"helpers.lua:2: version.compare(a, b) takes two version strings such as "5.2.0"; argument 2 is "#
                + "the number 6; quote versions where they are written (in YAML, 5.2 alone is a number)"
        ),
        (
            "version.compare('1')",
            #"helpers.lua:2: version.compare(a, b) takes two version strings such as "5.2.0"; argument 2 is missing"#
        ),
        (
            "version.compare(nil, '1')",
            #"helpers.lua:2: version.compare(a, b) takes two version strings such as "5.2.0"; argument 1 is nil"#
        ),
        (
            "version.compare({}, '1')",
            #"helpers.lua:2: version.compare(a, b) takes two version strings such as "5.2.0"; argument 1 is a table"#
        ),
    ])
    func namesAnInvalidVersionAndTheRulesLine(_ call: String, _ message: String) {
        let error = #expect(throws: LuaError.self) { try Self.run("return \(call)") }
        #expect(error?.description == message)
    }

    /// A long text costs its bytes (charged before reading) and no more: the parser stops
    /// at its length bound, and the message quotes 40 characters of it.
    @Test func refusesALongVersionWithinItsCharge() throws {
        let engine = try RuleEngine(sources: [
            RuleSource(name: "helpers.lua", text: "function f(a)\nreturn version.compare(a, '1')\nend")
        ])
        let long = String(repeating: "9", count: 500_000)
        let error = #expect(throws: LuaError.self) { try engine.evaluate("f", arguments: [.string(long)]) }
        #expect(
            error?.description
                == "helpers.lua:2: version.compare: \"\(String(repeating: "9", count: 40))…\" is not a version: "
                + "it is 500000 bytes long; a version has at most 256; "
                + "versions read like 6.2, v6.0.1, 6.0.1-beta.2 or 6.0.1 (1234)")
    }

    @Test func rollsOutDeterministicallyAsTheSwiftSideDoes() throws {
        // The bucket of ("new-checkout", "user-1") is 8393 (pinned in RolloutTests).
        #expect(try Self.run("return rollout('new-checkout', 'user-1', 83.93)") == false)
        #expect(try Self.run("return rollout('new-checkout', 'user-1', 83.94)") == true)
        #expect(try Self.run("return rollout('k', 42, 100)") == true)
        let error = #expect(throws: LuaError.self) { try Self.run("return rollout('k', {}, 10)") }
        #expect(error?.message.hasPrefix("rollout(key, id, percent) takes") == true)
    }

    @Test func encodesAndDecodesURLComponents() throws {
        #expect(try Self.run("return url.encode('a b/c?d=é')") == "a%20b%2Fc%3Fd%3D%C3%A9")
        #expect(try Self.run("return url.decode('a%20b%2Fc')") == "a b/c")
        #expect(try Self.run("return url.decode('a+b', true) .. '|' .. url.decode('a+b')") == "a b|a+b")
        let error = #expect(throws: LuaError.self) { try Self.run("return url.decode('%zz')") }
        #expect(error?.message.hasPrefix("url.decode: invalid percent-escape \"%zz\" at offset 0") == true)
    }

    @Test func parsesAndBuildsURLs() throws {
        let parsed = try Self.run(
            """
            local u = url.parse("myapp://user/42%2F7?tab=posts&tab=likes&q=a+b#top")
            return { scheme = u.scheme, host = u.host, path = u.path, seg = u.segments[1], tab = u.query.tab,
                     tabs = #u.query_all.tab, q = u.query.q, fragment = u.fragment }
            """)
        #expect(
            parsed == [
                "scheme": "myapp", "host": "user", "path": "/42/7", "seg": "42/7", "tab": "posts", "tabs": 2,
                "q": "a b", "fragment": "top",
            ])
        let built = try Self.run(
            """
            return url.build { scheme = "flutter", host = "app", segments = { "moments", "a/b" },
                               query = { id = 7, from = { "push", "h5" } }, fragment = "x y" }
            """)
        #expect(built == "flutter://app/moments/a%2Fb?from=push&from=h5&id=7#x%20y")
        let error = #expect(throws: LuaError.self) { try Self.run("return url.parse('myapp://user/%G1')") }
        #expect(error?.message.hasPrefix("url.parse: invalid percent-escape") == true)
    }

    @Test func keepsTheHelperTablesReadOnly() {
        let error = #expect(throws: LuaError.self) { try Self.run("url.encode = nil") }
        #expect(error?.message.contains("attempt to modify a read-only table") == true)
    }
}
