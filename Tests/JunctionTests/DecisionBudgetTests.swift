import Foundation
import Junction
import JunctionAuthoring
import Logging
import Testing
import JunctionTestSupport

/// One decision is bounded however its rules are arranged: the work of every rule it runs
/// shares ``SandboxLimits/decisionInstructions``, its verdicts share
/// ``DeciderOptions/maximumVerdictBytes``, its trace keeps at most
/// ``DeciderOptions/maximumTraceBytes`` of texts, and its rules' output at most
/// ``SandboxLimits/logLines`` lines and ``SandboxLimits/logBytes`` bytes.
@Suite struct DecisionBudgetTests {
    // MARK: - Helpers

    /// A decider for a bundle of `routes` (YAML) and `rules`, written to a folder of its own.
    static func decider(
        routes: String, rules: String, limits: SandboxLimits = SandboxLimits(decisionTime: .seconds(120)),
        options: DeciderOptions = DeciderOptions(),
        logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws -> Decider {
        try decider(routes: routes, files: [rules], limits: limits, options: options, logger: logger)
    }

    /// A decider for a bundle of `routes` (YAML) and Lua `files`, `rules0.lua`, `rules1.lua`, …
    static func decider(
        routes: String, files: [String], limits: SandboxLimits = SandboxLimits(decisionTime: .seconds(120)),
        options: DeciderOptions = DeciderOptions(),
        logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws -> Decider {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("junction-budget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try "name: budget\nversion: 1\n".write(
            to: root.appendingPathComponent("manifest.yaml"), atomically: true, encoding: .utf8)
        try routes.write(to: root.appendingPathComponent("routes.yaml"), atomically: true, encoding: .utf8)
        for (index, text) in files.enumerated() {
            try text.write(to: root.appendingPathComponent("rules\(index).lua"), atomically: true, encoding: .utf8)
        }
        return try Decider(
            bundle: try RuleBundle.load(directory: root.path, limits: limits, logger: logger), options: options)
    }

    /// `count` copies of `template`, `%d` replaced by 0, 1, …
    static func repeated(_ count: Int, _ template: String) -> String {
        repeated(0..<count, template)
    }

    static func repeated(_ numbers: Range<Int>, _ template: String) -> String {
        numbers.map { template.replacingOccurrences(of: "%d", with: "\($0)") }.joined(separator: "\n")
    }

    /// 1,000 copies of `template` in four files: loading a file runs under one rule's
    /// budget, and a declaration costs about a thousand instructions.
    static func thousand(_ template: String) -> [String] {
        (0..<4).map { repeated(($0 * 250)..<($0 * 250 + 250), template) }
    }

    /// Bytes of texts and verdicts the trace keeps.
    static func keptBytes(of decision: Decision) -> Int {
        decision.trace.steps.reduce(0) {
            $0 + $1.detail.utf8.count + ($1.error?.utf8.count ?? 0) + ($1.verdict.map { "\($0)".utf8.count } ?? 0)
        }
    }

    static func rejection(of decision: Decision) -> Rejection? {
        guard case .reject(let rejection) = decision.outcome else { return nil }
        return rejection
    }

    /// The work the trace reports, summed over its steps.
    static func work(of decision: Decision) -> Int {
        decision.trace.steps.reduce(0) { $0 + $1.instructions }
    }

    static func describe(_ decision: Decision) -> String {
        "\(decision.outcome)\n" + decision.trace.steps.suffix(12).map(\.description).joined(separator: "\n")
    }

    static let home = "routes:\n  - { name: home, pattern: \"myapp://home\" }\n"

    /// A loop of 80,000 VM instructions: most of a 100,000-instruction budget.
    static let spend = "for _ = 1, 80000 do end"

    // MARK: - Work

    /// 1,000 interceptors that each spin until stopped, and say to carry on when they
    /// fail: each alone is stopped by its own budget, but the decision ends once their
    /// work reaches the decision's — a few rules in, not 1,000 budgets later — rejected
    /// whatever `on_error` says, naming the rule that crossed it.
    @Test func aThousandSpinningInterceptorsEndInTheDecisionsBudget() throws {
        let limits = SandboxLimits(decisionTime: .seconds(120))
        let decider = try Self.decider(
            routes: Self.home,
            files: Self.thousand(
                """
                interceptor { name = "spin.%d", all = true, on_error = "continue", run = function(req, ctx)
                  if ctx.spin then while true do end end
                end }
                """))
        let decision = decider.decide(RouteRequest("myapp://home"), context: ContextSnapshot(["spin": true]))
        let rejection = try #require(Self.rejection(of: decision), "\(Self.describe(decision))")
        #expect(rejection.cause == .decisionBudget)
        let rule = try #require(rejection.rule)
        #expect(rule.hasPrefix("spin."))
        #expect(
            rejection.reason.hasPrefix(
                "rule \"\(rule)\" crossed the decision's budget: the decision's budget of \(limits.decisionInstructions) instructions is spent"
            ))
        let steps = decision.trace.steps.filter { $0.stage == .global }
        #expect(steps.count <= limits.decisionInstructions / limits.instructions + 1)
        #expect(steps.last?.name == rule)
        #expect(steps.last?.detail == "the decision's budget is spent: the decision ends, whatever on_error says")
        #expect(steps.dropLast().allSatisfy { $0.error?.contains("instruction budget of 1000000 exceeded") == true })
        #expect(Self.work(of: decision) <= limits.decisionInstructions + limits.instructionInterval * steps.count)

        // The next request, an ordinary one, runs all 1,000 rules and opens.
        let next = decider.decide(RouteRequest("myapp://home"), context: ContextSnapshot(["spin": false]))
        guard case .open = next.outcome else {
            Issue.record("expected to open: \(Self.describe(next))")
            return
        }
        #expect(next.trace.steps.filter { $0.stage == .global && $0.error == nil }.count == 1_000)
    }

    /// One way of running many rules in one decision, each of which fits its own budget.
    struct Arrangement: CustomTestStringConvertible, Sendable {
        let name: String
        let routes: String
        let rules: String
        let url: String
        /// The rule the rejection names: a prefix of it.
        let rule: String
        /// How the decision ends when the decision's budget does not stop it.
        let unbounded: String

        var testDescription: String { name }
    }

    static let arrangements: [Arrangement] = [
        Arrangement(
            name: "next() through 20 routes matching one URL",
            routes: "routes:\n"
                + (1...20).map { "  - { name: n.\($0), pattern: \"myapp://n/:p([a-z]{1,\($0)})\" }" }.joined(
                    separator: "\n"),
            rules: (1...20).map {
                "interceptor { name = \"decline.\($0)\", route = \"n.\($0)\", run = function() \(spend) return next() end }"
            }
            .joined(separator: "\n"),
            url: "myapp://n/x", rule: "decline.", unbounded: "unmatched"),
        Arrangement(
            name: "20 fallbacks",
            routes: home, rules: repeated(20, "fallback(function() \(spend) end)"),
            url: "myapp://nowhere", rule: "fallback", unbounded: "unmatched"),
        Arrangement(
            name: "20 redirect conditions",
            routes: home,
            rules: repeated(
                20,
                "redirect { from = \"myapp://w/:n\", to = \"myapp://home\", when = function() \(spend) return false end }"
            ),
            url: "myapp://w/1", rule: "myapp://w/:n", unbounded: "unmatched"),
        Arrangement(
            name: "a chain of redirect verdicts",
            routes: "routes:\n  - name: c\n    pattern: myapp://c/:n\n    params: { n: int }\n",
            rules:
                "interceptor { name = \"hop\", route = \"c\", run = function(req) \(spend) return redirect(\"myapp://c/\" .. (req.params.n + 1)) end }",
            url: "myapp://c/1", rule: "hop", unbounded: "too_many_redirects"),
        Arrangement(
            name: "a chain of declared redirects taken when a condition holds",
            routes: home,
            rules: (0..<8).map {
                "redirect { from = \"myapp://d/\($0)\", to = \"myapp://d/\($0 + 1)\", when = function() \(spend) return true end }"
            }
            .joined(separator: "\n"),
            url: "myapp://d/0", rule: "myapp://d/", unbounded: "unmatched"),
        Arrangement(
            name: "20 group policies of one route",
            routes:
                "routes:\n  - { name: g, pattern: \"myapp://g\", groups: [\((1...20).map { "g\($0)" }.joined(separator: ", "))] }\n",
            rules: (1...20).map { "group(\"g\($0)\", function() \(spend) end)" }.joined(separator: "\n"),
            url: "myapp://g", rule: "g", unbounded: "open"),
    ]

    /// However the rules are arranged — routes declining to the next, fallbacks, redirect
    /// conditions, hops — they draw on one budget: with 400,000 for the decision and
    /// 100,000 for each rule (which each rule fits), the decision is rejected a few rules
    /// in; with a budget for the decision as large as the rules need, it runs to its end.
    @Test(arguments: arrangements)
    func everyWayOfRunningManyRulesSharesTheDecisionsBudget(_ arrangement: Arrangement) throws {
        let limits = SandboxLimits(instructions: 100_000, decisionInstructions: 400_000, decisionTime: .seconds(120))
        let decider = try Self.decider(routes: arrangement.routes, rules: arrangement.rules, limits: limits)
        let decision = decider.decide(RouteRequest(arrangement.url))
        let rejection = try #require(Self.rejection(of: decision), "\(Self.describe(decision))")
        #expect(rejection.cause == .decisionBudget, "\(Self.describe(decision))")
        #expect(rejection.rule?.hasPrefix(arrangement.rule) == true, "\(rejection)")
        let ran = decision.trace.steps.filter { $0.instructions > 0 }
        #expect(ran.count <= 400_000 / 80_000)
        #expect(
            Self.work(of: decision) <= limits.decisionInstructions + limits.instructionInterval
                * decision.trace.steps.count)

        let roomy = try Self.decider(
            routes: arrangement.routes, rules: arrangement.rules,
            limits: SandboxLimits(instructions: 100_000, decisionInstructions: 10_000_000, decisionTime: .seconds(120)))
        let unbounded = roomy.decide(RouteRequest(arrangement.url))
        let ending: String
        switch unbounded.outcome {
        case .open: ending = "open"
        case .unmatched: ending = "unmatched"
        case .reject(let rejection): ending = rejection.cause.rawValue
        default: ending = "\(unbounded.outcome)"
        }
        #expect(ending == arrangement.unbounded, "\(Self.describe(unbounded))")
    }

    /// A decision that stays within its budget is not touched by it: 1,000 cheap rules,
    /// each rewriting a parameter, all run and the route opens with every rewrite.
    @Test func aDecisionWithinItsBudgetIsUnaffected() throws {
        let decider = try Self.decider(
            routes: Self.home,
            files: Self.thousand(
                """
                interceptor { name = "cheap.%d", all = true, run = function(req, ctx)
                  if req.url:upper() == "" then return reject("never") end
                  return rewrite { params = { p%d = %d } }
                end }
                """))
        let decision = decider.decide(RouteRequest("myapp://home"))
        guard case .open = decision.outcome else {
            Issue.record("expected to open: \(Self.describe(decision))")
            return
        }
        #expect(decision.params.count == 1_000)
        #expect(decision.params["p999"] == 999)
        #expect(decision.trace.steps.filter { $0.stage == .global && $0.error == nil }.count == 1_000)
        #expect(Self.work(of: decision) < SandboxLimits(decisionTime: .seconds(120)).decisionInstructions)
    }

    // MARK: - Verdicts

    /// Verdicts, each well within the value limits, that together carry more than a
    /// decision may: the decision is rejected naming the rule whose verdict crossed the
    /// bound, and its trace stays small.
    @Test(arguments: [
        (
            "1,000 rewrites of 100 kB", home,
            thousand(
                """
                interceptor { name = "big.%d", all = true, run = function()
                  return rewrite { params = { big%d = string.rep("x", 100000) } }
                end }
                """), "myapp://home", "big.10"
        ),
        (
            "redirects carrying 200 kB", "routes:\n  - name: c\n    pattern: myapp://c/:n\n    params: { n: int }\n",
            [
                """
                interceptor { name = "carry", route = "c", run = function(req)
                  return redirect("myapp://c/" .. (req.params.n + 1), { ["big" .. req.params.n] = string.rep("x", 200000) })
                end }
                """
            ], "myapp://c/1", "carry"
        ),
        (
            "20 group policies rewriting 100 kB",
            "routes:\n  - { name: g, pattern: \"myapp://g\", groups: [\((1...20).map { "g\($0)" }.joined(separator: ", "))] }\n",
            [
                repeated(
                    1..<21,
                    "group(\"g%d\", function() return rewrite { params = { g%d = string.rep(\"x\", 100000) } } end)")
            ],
            "myapp://g", "g11"
        ),
    ])
    func verdictsShareTheDecisionsBytes(_ name: String, routes: String, files: [String], url: String, rule: String)
        throws
    {
        // A decision budget large enough for the verdicts' bytes to be what ends it.
        let options = DeciderOptions()
        let limits = SandboxLimits(decisionInstructions: 50_000_000, decisionTime: .seconds(120))
        let decider = try Self.decider(routes: routes, files: files, limits: limits, options: options)
        let decision = decider.decide(RouteRequest(url))
        let rejection = try #require(Self.rejection(of: decision), "\(Self.describe(decision))")
        #expect(rejection.cause == .decisionBudget)
        #expect(rejection.rule == rule)
        #expect(
            rejection.reason.contains(
                "more than the \(options.maximumVerdictBytes) a decision may carry (DeciderOptions.maximumVerdictBytes)"
            ))
        #expect(decision.trace.steps.last { $0.name == rule }?.detail.hasPrefix("verdict too large") == true)
        let kept = Self.keptBytes(of: decision)
        #expect(kept <= options.maximumTraceBytes + 1_024, "the trace keeps \(kept) bytes")
    }

    // MARK: - The trace

    /// Regression: past the bound, each step kept 80 bytes of its detail and 80 of its
    /// error without counting them, so 500 rules failing with long messages kept 70 kB of
    /// texts under a 16 kB bound. 500 interceptors that fail with a 1,000-byte message and
    /// carry on: the trace keeps at most its bound of texts, every failed step still shows
    /// an error, and a last step says how much was left out.
    @Test func theTraceKeepsAtMostItsBoundOfTextsHoweverManyRulesFail() throws {
        let options = DeciderOptions(maximumTraceBytes: 16 << 10)
        let decider = try Self.decider(
            routes: Self.home,
            rules: Self.repeated(
                500,
                """
                interceptor { name = "fail.%d", all = true, on_error = "continue", run = function()
                  error(string.rep("e", 1000))
                end }
                """), limits: SandboxLimits(decisionInstructions: 50_000_000, decisionTime: .seconds(120)),
            options: options)
        let decision = decider.decide(RouteRequest("myapp://home"))
        guard case .open = decision.outcome else {
            Issue.record("expected to open: \(Self.describe(decision))")
            return
        }
        let steps = decision.trace.steps
        let failed = steps.filter { $0.stage == .global }
        #expect(failed.count == 500 && failed.allSatisfy { $0.error != nil })
        let texts = Self.keptBytes(of: decision) - (steps.last?.detail.utf8.count ?? 0)
        #expect(texts <= options.maximumTraceBytes, "the trace keeps \(texts) bytes of texts")
        #expect(texts > options.maximumTraceBytes - 1_100, "the trace keeps what fits: \(texts) bytes")
        let last = try #require(steps.last)
        #expect(last.stage == .decision)
        #expect(
            last.detail.hasPrefix(
                "the trace keeps at most 16384 bytes of texts and verdicts (DeciderOptions.maximumTraceBytes); "))
        let leftOut = try #require(
            last.detail.firstMatch(of: #/; (\d+) bytes of later steps were left out$/#).flatMap { Int($0.1) })
        #expect(leftOut + texts >= 500 * 1_000)
    }

    // MARK: - Output

    static let talkers = """
        routes:
          - { name: lines, pattern: "myapp://lines" }
          - { name: long, pattern: "myapp://long" }
        """

    /// A rule that prints 1,000 lines, and one that prints a 1 MB line: the logger receives
    /// at most `logLines` lines and about `logBytes` bytes, and one line saying what was
    /// dropped; each decision starts with a fresh allowance.
    @Test func ruleOutputIsBoundedPerDecision() throws {
        let log = CapturedLog()
        let limits = SandboxLimits(
            instructions: 10_000_000, decisionInstructions: 10_000_000, decisionTime: .seconds(120))
        let decider = try Self.decider(
            routes: Self.talkers,
            rules: """
                interceptor { name = "lines", route = "lines", run = function()
                  for i = 1, 1000 do if i % 2 == 0 then print("line " .. i) else log.info("line " .. i) end end
                end }
                interceptor { name = "long", route = "long", run = function()
                  log.warn(string.rep("x", 1 << 20))
                end }
                """, limits: limits, logger: log.logger)
        let report =
            "one decision may log at most 100 lines and 16384 bytes (SandboxLimits.logLines, SandboxLimits.logBytes)"
        for _ in 0..<2 {
            log.clear()
            guard case .open = decider.decide(RouteRequest("myapp://lines")).outcome else {
                Issue.record("expected to open")
                return
            }
            let lines = log.messages
            #expect(lines.count == limits.logLines + 1)
            #expect(Array(lines.prefix(3)) == ["line 1", "line 2", "line 3"])
            #expect(lines.dropLast().allSatisfy { $0.hasPrefix("line ") })
            // Lines 101 to 1,000: 899 of eight bytes and one of nine.
            #expect(lines.last == "dropped 900 lines and 7201 bytes of rule output: \(report)")
        }
        for _ in 0..<2 {
            log.clear()
            guard case .open = decider.decide(RouteRequest("myapp://long")).outcome else {
                Issue.record("expected to open")
                return
            }
            let lines = log.messages
            #expect(lines.count == 2)
            let kept = lines.first ?? ""
            #expect(kept.utf8.count <= limits.logBytes + 64)
            #expect(kept.hasPrefix(String(repeating: "x", count: limits.logBytes)))
            let dropped = (1 << 20) - limits.logBytes
            #expect(kept.hasSuffix(" … (\(dropped) more bytes dropped)"))
            #expect(lines.last == "dropped 0 lines and \(dropped) bytes of rule output: \(report)")
            #expect(log.entries.first?.level == .warning)
        }
    }
}
