import Foundation
import Junction
import JunctionAuthoring
import JunctionCore
import JunctionLua
import Logging

/// `attack.*`: the slowest decisions a hostile bundle can make under the default limits
/// (`SandboxLimits()`, `DeciderOptions()`), one decision per operation, in milliseconds.
/// Each attack aims at a different bound — the per-rule and per-decision instruction
/// budgets, the charges for work done in C, the pattern matcher's steps, the verdict and
/// trace bounds, and the time backstop for work the count cannot see (long string
/// comparisons) — so the slowest of them is the worst decision found.
///
/// Before timing, each decision is checked to end the way its bound says (rejected, or
/// opened after every rule failed): an attack that stopped working would time nothing.
struct AttackBenchmark: BenchmarkGroup {
    let name = "attack"

    /// One hostile bundle: its Lua files (run in order), the URL it is asked to open,
    /// and what the decision must come to.
    struct Attack {
        var name: String
        var files: [String]
        var url = "myapp://home"
        var expectation: Expectation
    }

    enum Expectation {
        /// Rejected with this cause.
        case rejected(Rejection.Cause)
        /// Opened: every rule failed and carried on.
        case opened
    }

    static let routes = """
        routes:
          - { name: home, pattern: "myapp://home", exported: true }
          - { name: a, pattern: "myapp://x/:id", exported: true, params: { id: int } }
          - { name: b, pattern: "myapp://x/:slug", exported: true }
          - { name: c, pattern: "myapp://x/*", exported: true }
          - { name: d, pattern: "myapp://x/**", exported: true }
        """

    /// Interceptors for every route that each run `body` and carry on when it fails.
    static func everyRoute(_ count: Int, _ body: String) -> String {
        """
        for i = 1, \(count) do
          interceptor { name = "attack" .. i, all = true, on_error = "continue", run = function(req, ctx)
            \(body)
          end }
        end
        """
    }

    static let attacks: [Attack] = [
        Attack(name: "spin", files: [everyRoute(400, "while true do end")], expectation: .rejected(.decisionBudget)),
        Attack(
            name: "long_strings_equal",
            files: [
                "A = ('x'):rep(200000)",
                "B = ('x'):rep(199999) .. 'x'\n"
                    + everyRoute(4, "local n = 0 while true do if A == B then n = n + 1 end end"),
            ],
            expectation: .rejected(.decisionBudget)),
        Attack(
            name: "long_strings_less",
            files: [
                "A = ('x'):rep(200000)",
                "B = ('x'):rep(199999) .. 'y'\n"
                    + everyRoute(4, "local n = 0 while true do if A < B then n = n + 1 end end"),
            ],
            expectation: .rejected(.decisionBudget)),
        Attack(
            name: "vararg_copies",
            files: [
                everyRoute(
                    40,
                    """
                    local t = {} for i = 1, 20000 do t[i] = i end
                    local function g() end
                    local function f(...) while true do g(...) end end
                    f(table.unpack(t))
                    """)
            ],
            expectation: .rejected(.decisionBudget)),
        Attack(
            name: "concat", files: [everyRoute(40, "local s = ('x'):rep(100000) while true do local t = s .. 'y' end")],
            expectation: .rejected(.decisionBudget)),
        Attack(
            name: "upper", files: [everyRoute(40, "local s = ('x'):rep(200000) while true do s:upper() end")],
            expectation: .rejected(.decisionBudget)),
        Attack(
            name: "pattern_optionals",
            files: [everyRoute(40, "while true do string.find(('a'):rep(30), ('a?'):rep(30) .. ('a'):rep(30)) end")],
            expectation: .rejected(.decisionBudget)),
        Attack(
            name: "pattern_plain_needle",
            files: [
                everyRoute(
                    40,
                    "local s, n = ('a'):rep(300000), ('a'):rep(150000) .. 'b' while true do string.find(s, n, 1, true) end"
                )
            ],
            expectation: .rejected(.decisionBudget)),
        Attack(
            name: "gsub_function",
            files: [
                everyRoute(40, "local s = ('x'):rep(100000) while true do s:gsub('x', function(c) return c end) end")
            ],
            expectation: .rejected(.decisionBudget)),
        Attack(
            name: "sort",
            files: [
                everyRoute(
                    40,
                    "local t = {} for i = 1, 5000 do t[i] = (i * 7919) % 5000 end while true do table.sort(t, function(a, b) return a > b end) end"
                )
            ],
            expectation: .rejected(.decisionBudget)),
        Attack(
            name: "next_chain",
            files: [
                """
                for _, route in ipairs({ "a", "b", "c", "d" }) do
                  interceptor { name = "decline-" .. route, route = route, run = function()
                    local n = 0 for i = 1, 300000 do n = n + i end
                    return next()
                  end }
                end
                """
            ],
            url: "myapp://x/7", expectation: .rejected(.decisionBudget)),
        Attack(
            name: "verdicts",
            files: [everyRoute(400, "return rewrite { params = { big = ('x'):rep(100000) } }")],
            expectation: .rejected(.decisionBudget)),
        Attack(
            name: "query_reads",
            files: [everyRoute(40, "while true do local v = req.query.zzz end")],
            url: "myapp://home?" + (0..<8_000).map { "k\($0)=v" }.joined(separator: "&"),
            expectation: .rejected(.decisionBudget)),
        // Integer keys that all collide in a hash part of 1,024 nodes: the doubling to it
        // rehashes 512 into one chain, every later insert walks it, and the part may not
        // double again (8,192 such keys had made one insert take 120 ms).
        Attack(
            name: "hash_collision",
            files: [everyRoute(40, "while true do local t = {} for k = 1, 2000 do t[k * 1023] = true end end")],
            expectation: .rejected(.decisionBudget)),
        Attack(
            name: "log_flood",
            files: [everyRoute(40, "local s = ('x'):rep(1000) while true do print(s) end")],
            expectation: .rejected(.decisionBudget)),
    ]

    func run(with harness: Harness, selecting selected: (String) -> Bool) throws(BenchmarkFailure) -> [Measurement] {
        let chosen = Self.attacks.filter { selected("\(name).\($0.name)") }
        guard !chosen.isEmpty else { return [] }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "junction-attacks-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: root) }
        // Rules print: the flood goes to a logger that drops it, as an app's would be bounded.
        let quiet = Logger(label: "junction.bench.attack") { _ in SwiftLogNoOpLogHandler() }
        var contenders: [Contender] = []
        for attack in chosen {
            let decider = try Self.decider(for: attack, in: root, logger: quiet)
            let request = RouteRequest(attack.url)
            try Self.check(decider.decide(request), attack)
            contenders.append(
                Contender(name: "\(name).\(attack.name)", n: 1, operationsPerIteration: 1) { iterations in
                    var sink = 0
                    for _ in 0..<iterations { sink &+= decider.decide(request).trace.steps.count }
                    return sink
                })
        }
        return harness.measure(contenders).map { measurement in
            var measurement = measurement
            measurement.reportsMilliseconds = true
            return measurement
        }
    }

    /// Writes and loads the attack's bundle.
    private static func decider(for attack: Attack, in root: URL, logger: Logger) throws(BenchmarkFailure) -> Decider {
        let folder = root.appendingPathComponent(attack.name)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "name: attack-\(attack.name)\nversion: 1\n".write(
                to: folder.appendingPathComponent("manifest.yaml"), atomically: true, encoding: .utf8)
            try routes.write(to: folder.appendingPathComponent("routes.yaml"), atomically: true, encoding: .utf8)
            for (index, text) in attack.files.enumerated() {
                try text.write(to: folder.appendingPathComponent("\(index).lua"), atomically: true, encoding: .utf8)
            }
            return try Decider(bundle: RuleBundle.load(directory: folder.path, logger: logger))
        } catch {
            throw BenchmarkFailure("attack.\(attack.name): the bundle does not load: \(error)")
        }
    }

    /// Throws unless the decision ended as the attack expects.
    private static func check(_ decision: Decision, _ attack: Attack) throws(BenchmarkFailure) {
        switch (decision.outcome, attack.expectation) {
        case (.reject(let rejection), .rejected(let cause)) where rejection.cause == cause: return
        case (.open, .opened): return
        default:
            throw BenchmarkFailure(
                "attack.\(attack.name): expected \(attack.expectation), the decision was \(decision.summary)")
        }
    }

    func report(_ measurements: [Measurement]) -> String {
        guard !measurements.isEmpty else { return "" }
        var lines = [
            "Attacks: the slowest decisions a hostile bundle makes under the default limits (ms per decision)", "",
        ]
        lines.append("  " + "attack".padding(toLength: 24, withPad: " ", startingAt: 0) + "median     slowest")
        for measurement in measurements {
            let label = String(measurement.name.dropFirst(name.count + 1)).padding(
                toLength: 24, withPad: " ", startingAt: 0)
            lines.append(
                "  " + label
                    + String(
                        format: "%7.2f    %7.2f", measurement.nanosecondsPerOperation / 1e6, measurement.slowest / 1e6))
        }
        if let worst = measurements.max(by: { $0.nanosecondsPerOperation < $1.nanosecondsPerOperation }) {
            lines.append("")
            lines.append(
                "  worst: \(worst.name) at \(String(format: "%.1f", worst.nanosecondsPerOperation / 1e6)) ms per decision"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
