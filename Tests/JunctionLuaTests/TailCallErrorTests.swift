import JunctionCore
import JunctionLua
import Testing

/// A rule that fails inside a helper it returns through (`return reject(42)`) keeps no
/// frame of its own; its error names the line where the rule's function starts instead.
@Suite struct TailCallErrorTests {
    private static let tailCall =
        " (the line where the function starts: the error came through a tail call, `return f(...)`, which leaves no line of its own)"

    @Test(arguments: [
        // The rule's function starts on line 2, its failing tail call is on line 4.
        (
            "\nlocal function run(req, ctx)\n  local x = 1\n  return reject(42)\nend\ninterceptor { name = 'i', all = true, run = run }",
            "rules/policy.lua:2: reject(reason [, code]) takes the reason as a string" + tailCall
        ),
        (
            "interceptor { name = 'i', all = true,\n  run = function(req, ctx) return gate({}) end }",
            "rules/policy.lua:2: gate(url [, { resume = true }]) takes the URL to open first, such as the login page"
                + tailCall
        ),
        // A C original the sandbox calls, reached through a tail call.
        (
            "interceptor { name = 'i', all = true, run = function(req, ctx)\n  return rawset()\nend }",
            "rules/policy.lua:1: bad argument #1 to 'rawset' (table expected, got nil)" + tailCall
        ),
        // Not a tail call: the failing line itself, as before.
        (
            "interceptor { name = 'i', all = true, run = function(req, ctx)\n  local v = reject(42)\n  return v\nend }",
            "rules/policy.lua:2: reject(reason [, code]) takes the reason as a string"
        ),
    ])
    func namesTheLineWhereTheRulesFunctionStarts(source: String, expected: String) throws {
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
