import JunctionCore
import JunctionLua
import Testing

/// A rule that fails in a sandbox function it returns through (`return reject(42)`) keeps
/// no frame of its own: Lua reuses it for the call. Its error names the line of that tail
/// call, read from the rule's code; only when the rule tail-calls the function on several
/// lines does it name the line where the rule's function starts, and say why. Errors in
/// helpers and nested functions keep their own line.
@Suite struct TailCallErrorTests {
    private static let tailCall =
        " (the line where the function starts: the error came through a tail call, `return f(...)`, which leaves no line of its own)"

    @Test(arguments: [
        // The rule's function starts on line 2, its failing tail call is on line 4.
        (
            "\nlocal function run(req, ctx)\n  local x = 1\n  return reject(42)\nend\ninterceptor { name = 'i', all = true, run = run }",
            "rules/policy.lua:4: reject(reason [, code]) takes the reason as a string"
        ),
        (
            "interceptor { name = 'i', all = true,\n  run = function(req, ctx) return gate({}) end }",
            "rules/policy.lua:2: gate(url [, { resume = true }]) takes the URL to open first, such as the login page"
        ),
        // The planted mistake: a misspelt field gives redirect nothing, on line 3.
        (
            "interceptor { name = 'i', all = true, run = function(req, ctx)\n  if req.url == '' then return nil end\n  return redirect(req.segmants)\nend }",
            "rules/policy.lua:3: redirect(url [, params] [, { keep_query = true }]) takes the URL to open instead, or "
                + "redirect{ from = ..., to = ... } declares a redirect"
        ),
        // A C original the sandbox calls, reached through a tail call.
        (
            "interceptor { name = 'i', all = true, run = function(req, ctx)\n  return rawset()\nend }",
            "rules/policy.lua:2: bad argument #1 to 'rawset' (table expected, got nil)"
        ),
        // Two tail calls of the function: which one failed cannot be told.
        (
            "interceptor { name = 'i', all = true, run = function(req, ctx)\n  if ctx.a then return reject(1) end\n  return reject(2)\nend }",
            "rules/policy.lua:1: reject(reason [, code]) takes the reason as a string" + tailCall
        ),
        // A tail call of another function does not confuse it.
        (
            "interceptor { name = 'i', all = true, run = function(req, ctx)\n  if ctx.a then return gate('myapp://login') end\n  return reject(2)\nend }",
            "rules/policy.lua:3: reject(reason [, code]) takes the reason as a string"
        ),
        // A helper the rule tail-calls fails in its own frame: its own line.
        (
            "local function helper(req)\n  return req.segmants[1]\nend\ninterceptor { name = 'i', all = true, run = function(req, ctx)\n  return helper(req)\nend }",
            "rules/policy.lua:2: attempt to index a nil value (field 'segmants')"
        ),
        // A function nested in the rule, called in tail position, fails on its own line.
        (
            "interceptor { name = 'i', all = true, run = function(req, ctx)\n  local check = function()\n    return reject(42)\n  end\n  return check()\nend }",
            "rules/policy.lua:3: reject(reason [, code]) takes the reason as a string"
        ),
        // Not a tail call: the failing line itself, as before.
        (
            "interceptor { name = 'i', all = true, run = function(req, ctx)\n  local v = reject(42)\n  return v\nend }",
            "rules/policy.lua:2: reject(reason [, code]) takes the reason as a string"
        ),
    ])
    func namesTheLineOfTheTailCall(source: String, expected: String) throws {
        let engine = try RuleEngine(sources: [RuleSource(name: "rules/policy.lua", text: source)])
        let function = try #require(engine.declarations.interceptors.first?.function)
        // Through a call with its own arguments…
        let direct = #expect(throws: LuaError.self) { try engine.evaluate(declared: function, arguments: [[:], [:]]) }
        #expect(direct?.description == expected)
        // …and through a session, as the decider calls rules.
        let request = RuleRequest(uri: try URI("myapp://home"), request: RouteRequest("myapp://home"))
        let lent = engine.withSession(context: .empty) { session -> Result<RuleResult, LuaError> in
            session.setRequest(request)
            do throws(LuaError) { return .success(try session.evaluate(declared: function)) } catch {
                return .failure(error)
            }
        }
        guard case .failure(let error) = lent else {
            Issue.record("expected the rule to fail")
            return
        }
        #expect(error.description == expected)
    }

    /// Reading the rule's code is bounded: a rule whose compiled code is larger than
    /// ``LuaState/tailCallDumpLimit`` (which may fail so on every request) is placed where
    /// it starts, as before, and says why.
    @Test func aRuleTooLargeToReadIsPlacedWhereItStarts() throws {
        let body = String(repeating: "  n = n + 1\n", count: 70_000)
        let source =
            "interceptor { name = 'i', all = true, run = function(req, ctx)\n  local n = 0\n" + body
            + "  return reject(n)\nend }"
        let engine = try RuleEngine(sources: [RuleSource(name: "rules/policy.lua", text: source)])
        let function = try #require(engine.declarations.interceptors.first?.function)
        let error = #expect(throws: LuaError.self) { try engine.evaluate(declared: function, arguments: [[:], [:]]) }
        #expect(
            error?.description == "rules/policy.lua:1: reject(reason [, code]) takes the reason as a string"
                + Self.tailCall)
    }

    @Test func aHelperDeclaredAsTheRuleItselfIsNotPlacedInTheSandbox() throws {
        // `run = reject` makes the prelude's own function the rule: no line of the bundle to name.
        let engine = try RuleEngine(sources: [
            RuleSource(name: "rules/policy.lua", text: "interceptor { name = 'i', all = true, run = reject }")
        ])
        let function = try #require(engine.declarations.interceptors.first?.function)
        let error = #expect(throws: LuaError.self) { try engine.evaluate(declared: function, arguments: [[:], [:]]) }
        #expect(error?.line == nil)
        #expect(error?.description.contains("junction/sandbox") == false)
    }
}
