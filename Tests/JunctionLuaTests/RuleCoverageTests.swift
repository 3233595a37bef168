import Foundation
import JunctionAuthoring
import JunctionCore
import Testing

@testable import JunctionLua

@Suite struct RuleCoverageTests {
    /// A one-file bundle, the calls made to it, and the lines they must leave executed
    /// and missed (together: the file's executable lines).
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let source: String
        var calls: [(function: String, request: RuleValue)] = []
        let executed: [Int]
        let missed: [Int]

        var testDescription: String { name }
    }

    static let decide = """
        function decide(req)
          if req.admin then
            return "allow"
          end
          return "deny"
        end
        """

    static let closures = """
        function outer(req)
          local function make(k)
            return function(v)
              return v + k
            end
          end
          if req.deep then
            return make(1)(req.n)
          end
          return 0
        end
        """

    static let cases: [Case] = [
        Case(
            name: "one branch of an if", source: decide, calls: [("decide", ["admin": true])], executed: [2, 3],
            missed: [5]),
        Case(
            name: "both branches", source: decide, calls: [("decide", ["admin": true]), ("decide", ["admin": false])],
            executed: [2, 3, 5], missed: []),
        Case(name: "a function never called", source: decide, executed: [], missed: [2, 3, 5]),
        Case(
            name: "a nested closure that never runs",
            source: """
                function outer(req)
                  local double = function(v)
                    return v * 2
                  end
                  return req.n
                end
                """,
            calls: [("outer", ["n": 2])], executed: [4, 5], missed: [3]),
        Case(
            name: "a nested closure that runs",
            source: """
                function outer(req)
                  local double = function(v)
                    return v * 2
                  end
                  return double(req.n)
                end
                """,
            calls: [("outer", ["n": 2])], executed: [3, 4, 5], missed: []),
        // A closure is created on its `end` line; the one inside `make` never exists as a value.
        Case(
            name: "closures two levels deep, not created", source: closures, calls: [("outer", ["deep": false])],
            executed: [6, 7, 10], missed: [4, 5, 8]),
        Case(
            name: "closures two levels deep, run", source: closures, calls: [("outer", ["deep": true, "n": 1])],
            executed: [4, 5, 6, 7, 8], missed: [10]),
        Case(
            name: "a local helper called by a rule",
            source: """
                local function normalize(path)
                  return (path:gsub("/+$", ""))
                end
                function route(req)
                  return normalize(req.path)
                end
                """,
            calls: [("route", ["path": "/a//"])], executed: [2, 5], missed: []),
        Case(
            name: "a helper that runs while the bundle loads",
            source: """
                local function set(list)
                  local s = {}
                  for _, v in ipairs(list) do s[v] = true end
                  return s
                end
                local allowed = set({ "a", "b" })
                function allowed_tab(req)
                  return allowed[req.tab] == true
                end
                """,
            executed: [2, 3, 4], missed: [8]),
        Case(
            name: "a loop body that never runs",
            source: """
                function total(req)
                  local sum = 0
                  for i = 1, #req.items do
                    sum = sum + req.items[i]
                  end
                  return sum
                end
                """,
            calls: [("total", ["items": []])], executed: [2, 3, 6], missed: [4]),
        Case(
            name: "one-line functions, an empty one, and a body that falls off its end",
            source: """
                function yes() return true end
                function noop() end
                function read(req)
                  local n = req.n
                end
                """,
            calls: [("yes", [:]), ("read", ["n": 1])], executed: [1, 4], missed: [2]),
        Case(
            name: "a vararg function",
            source: """
                function count(...)
                  return select("#", ...)
                end
                """,
            calls: [("count", [:])], executed: [2], missed: []),
        Case(
            name: "code at the top level is not counted",
            source: """
                local limit = 3
                config = { limit = limit }
                function over(req)
                  return req.n > config.limit
                end
                """,
            calls: [("over", ["n": 4])], executed: [4], missed: []),
    ]

    @Test(arguments: cases)
    func recordsTheLinesThatRan(_ test: Case) throws {
        let engine = try RuleEngine(sources: [RuleSource(name: "rules.lua", text: test.source)], coverage: true)
        for call in test.calls {
            _ = try engine.evaluate(call.function, arguments: [call.request, [:]])
        }
        let coverage = engine.coverage
        #expect(coverage.files == ["rules.lua"])
        #expect(coverage.executedLines(in: "rules.lua") == test.executed)
        #expect(coverage.missedLines(in: "rules.lua") == test.missed)
        #expect(coverage.executableLines(in: "rules.lua") == (test.executed + test.missed).sorted())
    }

    @Test func recordsEachFileUnderItsOwnName() throws {
        let engine = try RuleEngine(
            sources: [
                RuleSource(
                    name: "helpers.lua",
                    text: "function twice(n)\n  return n * 2\nend\nfunction unused()\n  return 0\nend\n"),
                RuleSource(name: "rules/main.lua", text: "function rule(req)\n  return twice(req.n)\nend\n"),
            ], coverage: true)
        #expect(try engine.evaluate("rule", arguments: [["n": 2]]).value == 4)
        let coverage = engine.coverage
        #expect(coverage.files == ["helpers.lua", "rules/main.lua"])
        #expect(coverage.executedLines(in: "helpers.lua") == [2])
        #expect(coverage.missedLines(in: "helpers.lua") == [5])
        #expect(coverage.executedLines(in: "rules/main.lua") == [2])
        #expect(coverage.percent(in: "helpers.lua") == 50)
        #expect(coverage.percent == 200.0 / 3)
    }

    @Test func recordsDeclaredFunctions() throws {
        let engine = try RuleEngine(
            sources: [
                RuleSource(
                    name: "policies.lua",
                    text: """
                        group('login', function(req, ctx)
                          if ctx.user == nil then
                            return gate('myapp://login')
                          end
                        end)
                        """)
            ], coverage: true)
        let group = try #require(engine.declarations.groups.first)
        _ = try engine.evaluate(declared: group.function, arguments: [[:], ["user": "ann"]])
        #expect(engine.coverage.executedLines(in: "policies.lua") == [2])
        #expect(engine.coverage.missedLines(in: "policies.lua") == [3])
    }

    /// Lua's line information switches to absolute lines after long gaps and every 128
    /// instructions; the bytecode reader follows both.
    @Test func readsTheLinesOfLongFunctions() throws {
        let statements = (0..<300).map { "  x = x + \($0)" }
        let text =
            (["function long(req)", "  local x = 0"] + statements[..<150] + Array(repeating: "", count: 400)
            + statements[150...] + ["  return x", "end"]).joined(separator: "\n")
        let engine = try RuleEngine(sources: [RuleSource(name: "long.lua", text: text)], coverage: true)
        let expected = Array(2...152) + Array(553...703)
        #expect(engine.coverage.executableLines(in: "long.lua") == expected)
        #expect(try engine.evaluate("long", arguments: [[:]]).value == .int(Int64((0..<300).reduce(0, +))))
        #expect(engine.coverage.executedLines(in: "long.lua") == expected)
    }

    /// The hook sees every Lua function that runs, the sandbox's own among them; only
    /// lines of functions of the bundle's chunks may be recorded.
    @Test func neverRecordsTheSandboxsOwnCodeOrTextLoadedAtRunTime() throws {
        let engine = try RuleEngine(
            sources: [
                RuleSource(
                    name: "rules.lua",
                    text: """
                        function busy(req)
                          local found = pcall(string.find, req.path, "^/a")
                          local t = { 3, 1, 2 }
                          table.sort(t, function(a, b) return a > b end)
                          local two = load("local function g() return 2 end return g()", "other.lua")()
                          return found and t[1] + two + load("return 1", "rules.lua")()
                        end
                        """)
            ], coverage: true)
        #expect(try engine.evaluate("busy", arguments: [["path": "/a"]]).value == 6)
        let log = try #require(engine.state.coverageLog)
        #expect(log.chunks.map(\.name) == ["rules.lua"])
        #expect(log.recorder.pointee.recordedLines(ofChunk: 0) == [2, 3, 4, 5, 6])
        #expect(engine.coverage.files == ["rules.lua"])
    }

    @Test func recordsARuleStoppedByTheInstructionBudget() throws {
        let source = RuleSource(
            name: "spin.lua",
            text: """
                function spin(req)
                  local n = 0
                  while true do
                    n = n + 1
                  end
                end
                function fine(req)
                  return 1
                end
                """)
        // The time backstop set aside: a slow (sanitized, loaded) run must end on the count.
        let engine = try RuleEngine(
            sources: [source], limits: SandboxLimits(instructions: 50_000, decisionTime: .seconds(120)), coverage: true)
        let error = #expect(throws: LuaError.self) { try engine.evaluate("spin", arguments: [[:]]) }
        #expect(error?.code == .instructionBudget)
        #expect(engine.coverage.executedLines(in: "spin.lua") == [2, 4])
        #expect(engine.coverage.missedLines(in: "spin.lua") == [8])
        // The engine goes on recording.
        #expect(try engine.evaluate("fine", arguments: [[:]]).value == 1)
        #expect(engine.coverage.missedLines(in: "spin.lua") == [])
    }

    /// The instruction budget charges the same instructions whether lines are recorded.
    @Test func chargesTheSameInstructionsWithCoverageOn() throws {
        let source = RuleSource(
            name: "sum.lua",
            text: """
                function sum(req)
                  local total = 0
                  for i = 1, req.n do total = total + i end
                  return total
                end
                """)
        // The time backstop set aside: only the count is compared, and a slow (sanitized,
        // loaded) run must not end on time instead.
        let limits = SandboxLimits(instructionInterval: 100, decisionTime: .seconds(120))
        let plain = try RuleEngine(sources: [source], limits: limits)
        let recording = try RuleEngine(sources: [source], limits: limits, coverage: true)
        for n in [0, 10, 1_000, 50_000] {
            let expected = try plain.evaluate("sum", arguments: [["n": .int(Int64(n))]])
            let recorded = try recording.evaluate("sum", arguments: [["n": .int(Int64(n))]])
            #expect(recorded == expected, "n = \(n)")
        }
    }

    /// Every sandbox attack ends the same way with coverage on.
    @Test(arguments: SandboxAttackTests.attacks)
    func endsEveryAttackTheSameWayWhileRecording(_ attack: SandboxAttackTests.Attack) throws {
        let engine = try RuleEngine(
            sources: [
                RuleSource(
                    name: "attack.lua",
                    text: """
                        function attack(req, ctx)
                        \(attack.body)
                        end
                        """)
            ], limits: attack.limits, coverage: true)
        let error = #expect(throws: LuaError.self) { try engine.evaluate("attack", arguments: [["n": 1], [:]]) }
        #expect(error?.code == attack.code, "\(error?.description ?? "no error")")
        #expect(error?.description.contains(attack.message) == true, "\(error?.description ?? "no error")")
        #expect(engine.coverage.files == ["attack.lua"])
    }

    @Test func forgetsWhatWasRecordedOnReset() throws {
        let engine = try RuleEngine(sources: [RuleSource(name: "rules.lua", text: Self.decide)], coverage: true)
        _ = try engine.evaluate("decide", arguments: [["admin": true]])
        engine.resetCoverage()
        #expect(engine.coverage.executedLines(in: "rules.lua") == [])
        #expect(engine.coverage.executableLines(in: "rules.lua") == [2, 3, 5])
        _ = try engine.evaluate("decide", arguments: [["admin": false]])
        #expect(engine.coverage.executedLines(in: "rules.lua") == [2, 5])
    }

    @Test func recordsNothingWhenOff() throws {
        let engine = try RuleEngine(sources: [RuleSource(name: "rules.lua", text: Self.decide)])
        _ = try engine.evaluate("decide", arguments: [["admin": true]])
        #expect(!engine.recordsCoverage)
        #expect(engine.state.context.pointee.lineRecorder == nil)
        #expect(engine.coverage == RuleCoverage())
        #expect(engine.coverage.files.isEmpty)

        let pool = try RuleEnginePool(sources: [RuleSource(name: "rules.lua", text: Self.decide)])
        _ = try pool.withEngine { engine throws(LuaError) in try engine.evaluate("decide", arguments: [[:]]) }
        #expect(!pool.recordsCoverage)
        #expect(pool.coverage == RuleCoverage())
    }

    @Test func mergesThePoolsEnginesSkippingThoseLentOut() throws {
        let sources = [RuleSource(name: "rules.lua", text: Self.decide)]
        // One idle engine at most: the second engine given back is dropped, its coverage kept.
        let pool = try RuleEnginePool(sources: sources, maximumIdle: 1, coverage: true)
        #expect(pool.recordsCoverage)
        try pool.withEngine { outer throws(LuaError) in
            _ = try outer.evaluate("decide", arguments: [["admin": true]])
            try pool.withEngine { inner throws(LuaError) in
                _ = try inner.evaluate("decide", arguments: [["admin": false]])
            }
            #expect(pool.coverage.executedLines(in: "rules.lua") == [2, 5])  // `outer` is lent out
        }
        #expect(pool.enginesCreated == 2)
        #expect(pool.coverage.executedLines(in: "rules.lua") == [2, 3, 5])
        #expect(pool.coverage.percent == 100)
    }

    @Test func bundlesLoadWithCoverage() throws {
        let directory = try RuleBundleTests.folder([
            "manifest.yaml": "name: shop\nversion: 1\n",
            "routes.yaml": "routes:\n  - name: home\n    pattern: myapp://home\n    exported: true\n",
            "login.lua": "function needs_login(req, ctx)\n  return ctx.user == nil\nend\n",
            "data.lua": "limits = { orders = 3 }\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bundle = try RuleBundle.load(directory: directory, coverage: true)
        #expect(bundle.engines.recordsCoverage)
        _ = try bundle.engines.withEngine { engine throws(LuaError) in
            try engine.evaluate("needs_login", arguments: [[:], [:]])
        }
        let coverage = bundle.engines.coverage
        #expect(coverage.files == ["data.lua", "login.lua"])
        #expect(coverage.executableLines(in: "data.lua") == [])
        #expect(coverage.executedLines(in: "login.lua") == [2])
        #expect(try RuleBundle.load(directory: directory).engines.coverage.files == [])
    }

    // MARK: - RuleCoverage values

    /// Coverage built from line sets, and the numbers it must report.
    struct Arithmetic: CustomTestStringConvertible, Sendable {
        let name: String
        let executable: [String: Set<Int>]
        let executed: [String: Set<Int>]
        let percent: Double
        let percentByFile: [String: Double]

        var testDescription: String { name }
    }

    static let arithmetic: [Arithmetic] = [
        Arithmetic(name: "nothing", executable: [:], executed: [:], percent: 100, percentByFile: ["a.lua": 100]),
        Arithmetic(
            name: "a quarter", executable: ["a.lua": [1, 2, 3, 4]], executed: ["a.lua": [3]], percent: 25,
            percentByFile: ["a.lua": 25]),
        Arithmetic(
            name: "weighted by lines, not files", executable: ["a.lua": [1, 2, 3], "b.lua": [7]],
            executed: ["a.lua": [1, 2, 3]],
            percent: 75, percentByFile: ["a.lua": 100, "b.lua": 0]),
        Arithmetic(
            name: "a file without executable lines", executable: ["a.lua": [2], "data.lua": []],
            executed: ["a.lua": [2]],
            percent: 100, percentByFile: ["data.lua": 100]),
        Arithmetic(
            name: "lines and files that are not executable are ignored", executable: ["a.lua": [1, 2]],
            executed: ["a.lua": [1, 9], "b.lua": [1]], percent: 50, percentByFile: ["a.lua": 50, "b.lua": 100]),
    ]

    @Test(arguments: arithmetic)
    func computesPercentages(_ test: Arithmetic) {
        let coverage = RuleCoverage(executableLines: test.executable, executedLines: test.executed)
        #expect(coverage.files == test.executable.keys.sorted())
        #expect(coverage.percent == test.percent)
        for (file, percent) in test.percentByFile {
            #expect(coverage.percent(in: file) == percent, "\(file)")
        }
        for file in coverage.files {
            #expect(
                (coverage.executedLines(in: file) + coverage.missedLines(in: file)).sorted()
                    == coverage.executableLines(in: file))
        }
    }

    @Test func mergesAsAUnion() {
        let first = RuleCoverage(executableLines: ["a.lua": [1, 2, 3], "b.lua": [5]], executedLines: ["a.lua": [1]])
        let second = RuleCoverage(
            executableLines: ["a.lua": [1, 2, 3], "c.lua": [9]], executedLines: ["a.lua": [3], "c.lua": [9]])
        let merged = first.merging(second)
        #expect(merged == second.merging(first))
        #expect(merged.files == ["a.lua", "b.lua", "c.lua"])
        #expect(merged.executedLines(in: "a.lua") == [1, 3])
        #expect(merged.missedLines(in: "a.lua") == [2])
        #expect(merged.executedLineCount == 3 && merged.executableLineCount == 5)
        #expect(merged.percent == 60)
        #expect(first.merging(RuleCoverage()) == first)
    }
}
