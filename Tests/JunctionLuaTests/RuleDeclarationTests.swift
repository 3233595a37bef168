import JunctionCore
import JunctionLua
import Testing

@Suite struct RuleDeclarationTests {
    static func engine(_ text: String) throws -> RuleEngine {
        try RuleEngine(sources: [RuleSource(name: "rules/policy.lua", text: text)])
    }

    @Test func collectsEveryKindOfDeclarationWithItsPlace() throws {
        let engine = try Self.engine(
            """
            redirect { from = "myapp://old/:id", to = "myapp://new/{id}", keep_query = true }
            redirect { from = "myapp://crashy", to = "https://m.example.com/crashy", on_error = "continue",
                       when = function(req, ctx) return ctx.app_version == "5.2.0" end }

            interceptor { name = "audit", all = true, priority = 10, on_error = "continue",
                          run = function(req, ctx) return nil end }
            interceptor { name = "orders", routes = { "order", "orders" }, run = function(req, ctx) return reject("closed", 503) end }
            group("login", function(req, ctx)
              if ctx.user == nil then return gate("myapp://login", { resume = true }) end
            end)
            fallback(function(req, ctx) return redirect("myapp://upgrade?url=" .. url.encode(req.url)) end)
            interceptor { name = "wallet", pattern = "myapp://wallet/**", run = print }
            interceptor { name = "old", patterns = { "/legacy/**", "myapp://v1/:x" }, route = nil, run = print }
            """)
        let declarations = engine.declarations
        #expect(declarations.redirects.map(\.from) == ["myapp://old/:id", "myapp://crashy"])
        #expect(declarations.redirects[0].keepQuery && declarations.redirects[0].condition == nil)
        #expect(declarations.redirects[1].location == "rules/policy.lua:2")
        #expect(declarations.redirects.map(\.onError) == [nil, .continue])
        #expect(declarations.interceptors.map(\.name) == ["audit", "orders", "wallet", "old"])
        #expect(declarations.interceptors[0].scope == .all && declarations.interceptors[0].priority == 10)
        #expect(declarations.interceptors[0].onError == .continue)
        #expect(declarations.interceptors[1].scope == .routes(["order", "orders"]))
        #expect(declarations.interceptors[2].scope == .pattern("myapp://wallet/**"))
        #expect(declarations.interceptors[3].scope == .patterns(["/legacy/**", "myapp://v1/:x"]))
        #expect(declarations.interceptors[1].location == "rules/policy.lua:7")
        #expect(declarations.groups[0].location.hasPrefix("rules/policy.lua:"))
        #expect(declarations.groups.map(\.name) == ["login"])
        #expect(declarations.fallbacks.count == 1)

        // Every declared function can be called, and its result read as a verdict.
        let condition = try #require(declarations.redirects[1].condition)
        #expect(try engine.evaluate(declared: condition, arguments: [[:], ["app_version": "5.2.0"]]).value == true)
        let orders = try engine.evaluate(declared: declarations.interceptors[1].function, arguments: [[:], [:]])
        #expect(try Verdict(orders.value, rule: "orders") == .reject(reason: "closed", code: 503))
        let login = try engine.evaluate(declared: declarations.groups[0].function, arguments: [[:], [:]])
        #expect(try Verdict(login.value, rule: "login") == .gate(url: "myapp://login", resume: true))
        let loggedIn = try engine.evaluate(
            declared: declarations.groups[0].function, arguments: [[:], ["user": "ann"]])
        #expect(try Verdict(loggedIn.value, rule: "login") == .continue)
        let fallback = try engine.evaluate(
            declared: declarations.fallbacks[0].function, arguments: [["url": "myapp://new?x=1"], [:]])
        #expect(
            try Verdict(fallback.value, rule: "fallback")
                == .redirect(url: "myapp://upgrade?url=myapp%3A%2F%2Fnew%3Fx%3D1", params: [:]))
    }

    @Test(arguments: [
        ("return rewrite { params = { tab = \"posts\" } }", Verdict.rewrite(params: ["tab": "posts"])),
        ("return next()", Verdict.next),
        ("return respond({ ok = true })", Verdict.respond(["ok": true])),
        (
            "return redirect(\"myapp://a\", { from = \"rule\" })",
            Verdict.redirect(url: "myapp://a", params: ["from": "rule"])
        ),
        // Options: a third argument, or the second when it holds options only.
        ("return redirect(\"myapp://a\", { keep_query = true })", Verdict.redirect(url: "myapp://a", keepQuery: true)),
        ("return redirect(\"myapp://a\", { keep_query = false })", Verdict.redirect(url: "myapp://a")),
        (
            "return redirect(\"myapp://a\", { from = \"rule\" }, { keep_query = true })",
            Verdict.redirect(url: "myapp://a", params: ["from": "rule"], keepQuery: true)
        ),
        (
            "return redirect(\"myapp://a\", nil, { keep_query = true })",
            Verdict.redirect(url: "myapp://a", keepQuery: true)
        ),
        // With a third argument the second is params, whatever its keys: a param named keep_query.
        (
            "return redirect(\"myapp://a\", { keep_query = true }, {})",
            Verdict.redirect(url: "myapp://a", params: ["keep_query": true])
        ),
        ("return gate(\"myapp://login\", { resume = false })", Verdict.gate(url: "myapp://login", resume: false)),
        ("return reject(\"no\")", Verdict.reject(reason: "no", code: nil)),
        ("return reject(\"closed\", 503)", Verdict.reject(reason: "closed", code: 503)),
        ("return nil", Verdict.continue),
    ])
    func readsEachVerdict(_ body: String, _ expected: Verdict) throws {
        let engine = try Self.engine("function rule(req, ctx)\n\(body)\nend")
        #expect(try Verdict(engine.evaluate("rule", arguments: [[:], [:]]).value, rule: "rule") == expected)
    }

    @Test func keepsLuasOwnNextForIteration() throws {
        let engine = try Self.engine("function first(req) local k, v = next({ a = 1 }) return k .. v end")
        #expect(try engine.evaluate("first").value == "a1")
    }

    @Test func refusesNonVerdicts() throws {
        let engine = try Self.engine("function rule() return 42 end")
        let error = #expect(throws: LuaError.self) { try Verdict(engine.evaluate("rule").value, rule: "rule") }
        #expect(
            error?.message.hasPrefix("the rule returned the number 42; a rule returns nil (carry on) or a verdict")
                == true)
    }

    /// A priority written as a float with a whole value is that integer: it was read as no
    /// priority at all (the declarations were read as values, where `2.0` is not an integer).
    @Test func aWholeFloatPriorityIsThatInteger() throws {
        let engine = try Self.engine(
            """
            interceptor { name = "first", all = true, priority = 2.0, run = print }
            interceptor { name = "second", all = true, priority = -3, run = print }
            """)
        #expect(engine.declarations.interceptors.map(\.priority) == [2, -3])
    }

    /// Declarations are read without a cap of their own on how many (the state's memory
    /// bounds them): 2,000 redirects are all read (reading them as values stopped at 10,000).
    @Test func everyDeclarationOfALargeBundleIsRead() throws {
        let lines = (0..<2_000).map { "redirect { from = \"myapp://old/\($0)\", to = \"myapp://new/\($0)\" }" }
        let engine = try RuleEngine(
            sources: [RuleSource(name: "rules/policy.lua", text: lines.joined(separator: "\n"))],
            limits: SandboxLimits(instructions: 10_000_000, decisionTime: .seconds(5)))
        #expect(engine.declarations.redirects.count == 2_000)
        #expect(engine.declarations.redirects.last?.to == "myapp://new/1999")
        #expect(engine.declarations.redirects.last?.location == "rules/policy.lua:2000")
    }

    @Test(arguments: [
        (
            "interceptor { name = \"a\", run = function() end }",
            "interceptor \"a\": give exactly one of route = NAME, routes = { NAME, ... }, pattern = PATTERN, patterns = { PATTERN, ... } or all = true"
        ),
        (
            "interceptor { name = \"a\", route = \"home\", pattern = \"myapp://home\", run = print }",
            "interceptor \"a\": give exactly one of route = NAME, routes = { NAME, ... }, pattern = PATTERN, patterns = { PATTERN, ... } or all = true"
        ),
        (
            "interceptor { name = \"a\", route = \"home\", all = false, run = print }",
            "interceptor \"a\": all = false means nothing; leave it out, or give all = true"
        ),
        (
            "interceptor { name = \"a\", routes = { \"home\", 7 }, run = print }",
            "interceptor \"a\": routes must list route names (strings)"
        ),
        (
            "interceptor { name = \"a\", patterns = {}, run = print }",
            "interceptor \"a\": patterns lists no URL patterns"
        ),
        (
            "interceptor { name = \"a\", pattern = { \"myapp://x\" }, run = print }",
            "interceptor \"a\": pattern must be a string, not a table"
        ),
        ("interceptor { name = \"a\", all = true }", "interceptor \"a\": missing run (function)"),
        ("interceptor { name = \"a\", all = true, run = print, colour = 1 }", "interceptor: unknown field colour"),
        (
            "interceptor { name = \"a\", all = true, run = print }\ninterceptor { name = \"a\", all = true, run = print }",
            "interceptor \"a\" is declared twice; names are unique"
        ),
        (
            "interceptor { name = \"a\", all = true, on_error = \"ignore\", run = print }",
            "interceptor \"a\": on_error must be \"continue\" or \"reject\", not \"ignore\""
        ),
        ("redirect { from = \"/a\" }", "redirect: missing to (string)"),
        (
            "redirect { from = \"/a\", to = \"/b\", on_error = \"ignore\" }",
            "redirect: on_error must be \"continue\" or \"reject\", not \"ignore\""
        ),
        (
            "redirect { from = \"/a\", to = \"/b\", on_error = true }",
            "redirect: on_error must be a string, not a boolean"
        ),
        ("redirect { from = \"/a\", to = \"/b\", onerror = \"continue\" }", "redirect: unknown field onerror"),
        (
            "redirect(42)",
            "redirect(url [, params] [, { keep_query = true }]) takes the URL to open instead, "
                + "or redirect{ from = ..., to = ... } declares a redirect"
        ),
        (
            "group(\"login\", print)\ngroup(\"login\", print)",
            "group \"login\" already has a policy (at rules/policy.lua:1)"
        ),
        ("fallback(\"x\")", "fallback(function(req, ctx) ... end) handles URLs no route matches"),
        (
            "interceptor { name = \"a\", all = true, priority = 2.5, run = print }",
            "interceptor \"a\": priority must be a whole number from -2^63 to 2^63 - 1"
        ),
        (
            "interceptor { name = \"a\", all = true, priority = 1e300, run = print }",
            "interceptor \"a\": priority must be a whole number from -2^63 to 2^63 - 1"
        ),
        (
            "interceptor { name = \"a\", all = true, priority = math.huge, run = print }",
            "interceptor \"a\": priority must be a whole number from -2^63 to 2^63 - 1"
        ),
        // Text the host would read as no value: an interceptor's route that is not there
        // applied it to every route.
        (
            "interceptor { name = \"a\", route = \"\\xff\", run = print }",
            "interceptor \"a\": route must be UTF-8 text"
        ),
        (
            "interceptor { name = \"a\", patterns = { \"myapp://x\", \"\\xc0\\xaf\" }, run = print }",
            "interceptor \"a\": patterns must list UTF-8 text"
        ),
        ("interceptor { name = \"\\xff\", all = true, run = print }", "interceptor: name must be UTF-8 text"),
        ("redirect { from = \"/a\", to = \"/\\xed\\xa0\\x80\" }", "redirect: to must be UTF-8 text"),
        ("group(\"\\xff\", print)", "group: name must be UTF-8 text"),
        (
            "interceptor { name = \"a\", all = true, priority = \"high\", run = print }",
            "interceptor \"a\": priority must be a number, not a string"
        ),
    ])
    func explainsMistakenDeclarationsWithTheirLine(_ text: String, _ message: String) {
        let error = #expect(throws: LuaError.self) { try Self.engine(text) }
        #expect(error?.chunkName == "rules/policy.lua")
        #expect(error?.message == message, "\(error?.description ?? "")")
    }

    /// A redirect verdict's options are refused when they are not what they must be, and a
    /// table that could be params or options is an error rather than a guess.
    @Test(arguments: [
        (
            "redirect(\"myapp://a\", { keep_query = true, id = 7 })",
            "redirect: the table mixes keep_query with params; give them apart: redirect(url, params, { keep_query = true })"
        ),
        (
            "redirect(\"myapp://a\", {}, { keep_qeury = true })",
            "redirect: unknown option keep_qeury; the options are { keep_query = true }"
        ),
        (
            "redirect(\"myapp://a\", { keep_query = \"yes\" })",
            "redirect: keep_query must be true or false, not a string"
        ),
        (
            "redirect(\"myapp://a\", nil, { keep_query = 1 })",
            "redirect: keep_query must be true or false, not a number"
        ),
        ("redirect(\"myapp://a\", {}, true)", "redirect: options must be a table such as { keep_query = true }"),
        ("redirect(\"myapp://a\", 42)", "redirect: params must be a table"),
    ])
    func refusesRedirectOptionsThatAreNotOptions(_ call: String, _ message: String) throws {
        let engine = try Self.engine("function rule(req, ctx)\n  local verdict = \(call)\n  return verdict\nend")
        let error = #expect(throws: LuaError.self) { try engine.evaluate("rule", arguments: [[:], [:]]) }
        #expect(error?.description == "rules/policy.lua:2: \(message)")
    }

    @Test func refusesDeclarationsWhileRulesRun() throws {
        let engine = try Self.engine("function late() group(\"x\", function() end) end")
        let error = #expect(throws: LuaError.self) { try engine.evaluate("late") }
        #expect(error?.message == "group: rules are declared while the bundle loads, not while they run")
    }
}
