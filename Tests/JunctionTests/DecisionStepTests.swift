import Foundation
import Junction
import JunctionAuthoring
import Testing

/// Every rule a decision runs — an interceptor, a group policy, a fallback, a redirect's
/// `when` — is one step, evaluated alike: it reads the request as it stands at that
/// step, and a failure follows the step's `on_error` and is traced the same way.
@Suite struct DecisionStepTests {
    static let routes = """
        routes:
          - { name: r, pattern: "myapp://r/:n", groups: [g, g2], params: { n: int } }
          - { name: r2, pattern: "myapp://r/:m" }
          - { name: home, pattern: "myapp://home" }
        """

    /// A decider for `rules`, with the manifest's `on_error` and a budget of 100,000
    /// instructions a rule (150,000 a decision).
    static func decider(rules: String, onError: String = "reject") throws -> Decider {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("junction-steps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try "name: steps\nversion: 1\non_error: \(onError)\n".write(
            to: root.appendingPathComponent("manifest.yaml"), atomically: true, encoding: .utf8)
        try routes.write(to: root.appendingPathComponent("routes.yaml"), atomically: true, encoding: .utf8)
        try rules.write(to: root.appendingPathComponent("rules.lua"), atomically: true, encoding: .utf8)
        let limits = SandboxLimits(instructions: 100_000, decisionInstructions: 150_000, decisionTime: .seconds(120))
        return try Decider(bundle: try RuleBundle.load(directory: root.path, limits: limits))
    }

    static func describe(_ decision: Decision) -> String {
        decision.trace.steps.map(\.description).joined(separator: "\n")
    }

    /// Where a rule runs: the declaration that wraps its body, and a URL that runs it.
    struct Place: CustomTestStringConvertible, Sendable {
        let name: String
        /// `%@` stands for the rule's body, `%n` for a suffix that tells copies apart.
        let declaration: String
        let url: String
        /// The outcome when the rule carries on (or is not taken).
        let carryingOn: String
        /// What the trace says when `on_error = continue` lets the decision carry on.
        let continuing: String

        var testDescription: String { name }

        /// The declaration around `body`, `copies` times.
        func rules(_ body: String, copies: Int = 1) -> String {
            (0..<copies).map { copy in
                declaration.replacingOccurrences(of: "%@", with: body).replacingOccurrences(
                    of: "%n", with: copy == 0 ? "" : "\(copy + 1)")
            }.joined(separator: "\n")
        }
    }

    static let places: [Place] = [
        Place(
            name: "an interceptor",
            declaration: "interceptor { name = 'step%n', all = true, run = function(req, ctx) %@ end }",
            url: "myapp://r/1", carryingOn: "open r", continuing: "on_error = continue: carrying on"),
        Place(
            name: "a group policy", declaration: "group('g%n', function(req, ctx) %@ end)",
            url: "myapp://r/1", carryingOn: "open r", continuing: "on_error = continue: carrying on"),
        Place(
            name: "a fallback", declaration: "fallback(function(req, ctx) %@ end)",
            url: "myapp://nowhere", carryingOn: "unmatched", continuing: "on_error = continue: carrying on"),
        Place(
            name: "a redirect's when",
            declaration: "redirect { from = 'myapp://r/:n', to = 'myapp://home', when = function(req, ctx) %@ end }",
            url: "myapp://r/1", carryingOn: "open r", continuing: "on_error = continue: not taken"),
    ]

    static func summary(_ decision: Decision) -> String { DeciderTests.summary(decision) }

    /// A rule that raises follows the manifest's `on_error` wherever it runs; the trace
    /// says so in the same words.
    @Test(arguments: places)
    func aFailingRuleFollowsTheBundlesOnError(_ place: Place) throws {
        let rules = place.rules("error('boom')")
        let rejecting = try Self.decider(rules: rules, onError: "reject").decide(RouteRequest(place.url))
        #expect(Self.summary(rejecting) == "reject rule_failed 500", "\(Self.describe(rejecting))")
        let failed = try #require(rejecting.trace.steps.last)
        #expect(
            failed.detail == "on_error = reject" && failed.error?.contains("rules.lua:1: boom") == true, "\(failed)")

        let continuing = try Self.decider(rules: rules, onError: "continue").decide(RouteRequest(place.url))
        #expect(Self.summary(continuing) == place.carryingOn, "\(Self.describe(continuing))")
        let step = try #require(continuing.trace.steps.first { $0.error != nil })
        #expect(step.detail == place.continuing && step.verdict == nil, "\(step)")
    }

    /// A rule that runs out of its instruction budget records the budget as its work,
    /// wherever it runs.
    @Test(arguments: places)
    func aRuleOutOfItsBudgetRecordsTheBudget(_ place: Place) throws {
        let decision = try Self.decider(rules: place.rules("while true do end"), onError: "continue")
            .decide(RouteRequest(place.url))
        #expect(Self.summary(decision) == place.carryingOn, "\(Self.describe(decision))")
        let step = try #require(decision.trace.steps.first { $0.error != nil }, "\(Self.describe(decision))")
        #expect(step.error?.contains("instruction budget of 100000 exceeded") == true, "\(step)")
        #expect(step.instructions == 100_000, "\(step)")
        #expect(step.detail == place.continuing, "\(step)")
    }

    /// A rule stopped by its budget — its own, or the decision's — is traced at its
    /// declaration, and its error names the line that was running, wherever it runs.
    @Test(arguments: places)
    func aBudgetErrorNamesTheLineRunningAndTheStepItsRule(_ place: Place) throws {
        // Each copy is four lines: the declaration, a local, the loop, the end.
        let body = "\n  local n = 0\n  while true do n = n + 1 end\n"
        let own = try Self.decider(rules: place.rules(body), onError: "continue").decide(RouteRequest(place.url))
        let stopped = try #require(own.trace.steps.first { $0.error != nil }, "\(Self.describe(own))")
        #expect(stopped.location == "rules.lua:1", "\(stopped)")
        #expect(
            stopped.error
                == "rules.lua:3: instruction budget of 100000 exceeded; the rule runs too long (a loop that never ends?)",
            "\(stopped)")

        let shared = try Self.decider(rules: place.rules(body, copies: 2), onError: "continue")
            .decide(RouteRequest(place.url))
        let last = try #require(shared.trace.steps.last)
        #expect(last.location == "rules.lua:5", "\(last)")
        #expect(
            last.error
                == "rules.lua:7: the decision's budget of 150000 instructions is spent; every rule a decision runs "
                + "shares it (SandboxLimits.decisionInstructions)", "\(last)")
    }

    /// Two rules that each spin until stopped cross the decision's budget of 150,000
    /// instructions, wherever they run: the decision ends, whatever `on_error` says,
    /// and the trace says so in the same words.
    @Test(arguments: places)
    func crossingTheDecisionsBudgetEndsTheDecisionAnywhere(_ place: Place) throws {
        let decision = try Self.decider(rules: place.rules("while true do end", copies: 2), onError: "continue")
            .decide(RouteRequest(place.url))
        #expect(Self.summary(decision) == "reject decision_budget 500", "\(Self.describe(decision))")
        let last = try #require(decision.trace.steps.last)
        #expect(last.detail == "the decision's budget is spent: the decision ends, whatever on_error says", "\(last)")
    }

    /// What a rule reads as `req` is the request as it stands at its step: later steps
    /// see a rewrite, the next route's steps see their own match, a `when` sees its
    /// `from` pattern's parameters.
    @Test(
        arguments: [
            // A rewrite is read by the steps after it.
            (
                """
                interceptor { name = 'a', all = true, priority = 1, run = function() return rewrite { params = { x = 1 } } end }
                interceptor { name = 'b', all = true, run = function(req) return respond(req.params.x) end }
                """, "myapp://r/1", "respond 1"
            ),
            // After next(), the next route's rules read its match, without the declined route's rewrites.
            (
                """
                interceptor { name = 'a', route = 'r', priority = 1, run = function() return rewrite { params = { x = 1 } } end }
                interceptor { name = 'b', route = 'r', run = function() return next() end }
                interceptor { name = 'c', route = 'r2', run = function(req)
                  return respond({ route = req.route.name, m = req.params.m, x = req.params.x })
                end }
                """, "myapp://r/7", #"respond {"m":"7","route":"r2"}"#
            ),
            // A redirect's when reads its from pattern's parameters, and no route.
            (
                "redirect { from = 'myapp://r/:n', to = 'myapp://home', when = function(req) return req.params.n == '1' and req.route == nil end }",
                "myapp://r/1", "open home via 1"
            ),
            (
                "redirect { from = 'myapp://r/:n', to = 'myapp://home', when = function(req) return req.params.n == '1' end }",
                "myapp://r/2", "open r"
            ),
            // When the best pattern's whens do not hold, the next pattern's when reads its own parameters.
            (
                """
                redirect { from = 'myapp://r/1', to = 'myapp://home', when = function(req) return false end }
                redirect { from = 'myapp://r/:k', to = 'myapp://home', when = function(req) return req.params.k == '1' end }
                """, "myapp://r/1", "open home via 1"
            ),
            // A fallback reads the URL, without a route.
            (
                "fallback(function(req) return respond(req.url .. ' ' .. tostring(req.route)) end)",
                "myapp://nowhere", #"respond "myapp://nowhere nil""#
            ),
            // A fallback's nil and next() leave the URL to the next fallback.
            (
                """
                fallback(function() return nil end)
                fallback(function() return next() end)
                fallback(function() return respond('third') end)
                """, "myapp://nowhere", #"respond "third""#
            ),
            // After a redirect verdict, rules read the new URL and the parameters it carried.
            (
                """
                interceptor { name = 'move', route = 'r', run = function() return redirect('myapp://home', { from = 'r' }) end }
                interceptor { name = 'seen', route = 'home', run = function(req) return respond(req.url .. ' ' .. req.params.from) end }
                """, "myapp://r/1", #"respond "myapp://home r" via 1"#
            ),
            // keep_query carries the query of the URL being decided onto the target, after the
            // target's own and before its fragment: a name in both reads as the target's.
            (
                """
                interceptor { name = 'move', route = 'r', run = function() return redirect('myapp://home?x=9#top', { keep_query = true }) end }
                interceptor { name = 'seen', route = 'home', run = function(req) return respond(req.url .. ' ' .. req.query.x) end }
                """, "myapp://r/1?x=1&y=a%20b", #"respond "myapp://home?x=9&x=1&y=a%20b#top 9" via 1"#
            ),
            // With params too, and with req.params itself as the params.
            (
                """
                interceptor { name = 'move', route = 'r', run = function() return redirect('myapp://home', { from = 'r' }, { keep_query = true }) end }
                interceptor { name = 'seen', route = 'home', run = function(req) return respond(req.url .. ' ' .. req.params.from) end }
                """, "myapp://r/1?x=1", #"respond "myapp://home?x=1 r" via 1"#
            ),
            (
                """
                interceptor { name = 'move', route = 'r', run = function(req) return redirect('myapp://home', req.params, { keep_query = true }) end }
                interceptor { name = 'seen', route = 'home', run = function(req) return respond(req.url .. ' ' .. req.params.n) end }
                """, "myapp://r/7?x=1", #"respond "myapp://home?x=1 7" via 1"#
            ),
            // A fallback keeps the query of the URL no route took; a URL without one keeps nothing.
            (
                """
                fallback(function(req) return redirect('myapp://home', { keep_query = true }) end)
                interceptor { name = 'seen', route = 'home', run = function(req) return respond(req.url) end }
                """, "myapp://nowhere?a=1", #"respond "myapp://home?a=1" via 1"#
            ),
            (
                """
                fallback(function(req) return redirect('myapp://home', { keep_query = true }) end)
                interceptor { name = 'seen', route = 'home', run = function(req) return respond(req.url) end }
                """, "myapp://nowhere", #"respond "myapp://home" via 1"#
            ),
            // keep_query = false, or no options, carries no query.
            (
                """
                interceptor { name = 'move', route = 'r', run = function() return redirect('myapp://home', { keep_query = false }) end }
                interceptor { name = 'seen', route = 'home', run = function(req) return respond(req.url) end }
                """, "myapp://r/1?x=1", #"respond "myapp://home" via 1"#
            ),
        ] as [(String, String, String)])
    func eachRuleReadsTheRequestAsItStandsAtItsStep(rules: String, url: String, expected: String) throws {
        let decision = try Self.decider(rules: rules).decide(RouteRequest(url))
        #expect(Self.summary(decision) == expected, "\(Self.describe(decision))")
    }

    /// What each kind of step leaves in the trace: a redirect's `when` is a step of its
    /// own, before the redirect's; a fallback shows the verdict it returned.
    @Test(
        arguments: [
            (
                "redirect { from = 'myapp://r/:n', to = 'myapp://home', when = function() return true end }",
                "myapp://r/1",
                [
                    "redirect myapp://r/:n (rules.lua:1): when holds",
                    "redirect myapp://r/:n (rules.lua:1) → redirect myapp://home",
                    "match home: myapp://home",
                ]
            ),
            (
                "redirect { from = 'myapp://r/:n', to = 'myapp://home', when = function() return false end }",
                "myapp://r/1",
                [
                    "redirect myapp://r/:n (rules.lua:1): when is false: not taken",
                    "match r: myapp://r/:n",
                ]
            ),
            (
                "fallback(function() return next() end)", "myapp://nowhere",
                [
                    "match: no route matches",
                    "fallback (rules.lua:1) → next",
                ]
            ),
            // A redirect verdict that keeps the query shows where it leads.
            (
                "interceptor { name = 'move', route = 'r', run = function() return redirect('myapp://home', { keep_query = true }) end }",
                "myapp://r/1?x=1",
                [
                    "match r: myapp://r/:n",
                    "route move (rules.lua:1) → redirect myapp://home?x=1 (keep_query)",
                    "match home: myapp://home",
                ]
            ),
        ] as [(String, String, [String])])
    func eachStepIsTraced(rules: String, url: String, expected: [String]) throws {
        let decision = try Self.decider(rules: rules).decide(RouteRequest(url))
        #expect(decision.trace.steps.map(\.description) == expected)
    }

    /// A redirect's own `on_error` decides what its failing `when` does, over the bundle's;
    /// without one, the bundle's applies.
    @Test(
        arguments: [
            ("reject", "on_error = 'continue',", "open r", "on_error = continue: not taken"),
            ("continue", "on_error = 'reject',", "reject rule_failed 500", "on_error = reject"),
            ("continue", "", "open r", "on_error = continue: not taken"),
            ("reject", "", "reject rule_failed 500", "on_error = reject"),
        ] as [(String, String, String, String)])
    func aRedirectsOwnOnErrorDecidesWhatItsFailingWhenDoes(
        bundle: String, own: String, outcome: String, detail: String
    ) throws {
        let rules =
            "redirect { from = 'myapp://r/:n', to = 'myapp://home', \(own) when = function() error('boom') end }"
        let decision = try Self.decider(rules: rules, onError: bundle).decide(RouteRequest("myapp://r/1"))
        #expect(Self.summary(decision) == outcome, "\(Self.describe(decision))")
        let failed = try #require(decision.trace.steps.first)
        #expect(
            failed.description == "redirect myapp://r/:n (rules.lua:1): \(detail) ✗ rules.lua:1: boom", "\(failed)")
    }
}
