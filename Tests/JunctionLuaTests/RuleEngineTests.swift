import JunctionCore
import JunctionLua
import Logging
import Testing
import JunctionTestSupport

@Suite struct RuleEngineTests {
    static func engine(_ text: String, name: String = "rules/main.lua", limits: SandboxLimits = SandboxLimits()) throws
        -> RuleEngine
    {
        try RuleEngine(sources: [RuleSource(name: name, text: text)], limits: limits)
    }

    @Test func runsLoadTimeCodeAndCallsTheFunctionsItDefines() throws {
        let engine = try Self.engine(
            """
            local prefix = "/orders"
            local function starts(s, p) return s:sub(1, #p) == p end
            function needs_login(req, ctx)
              return ctx.user == nil and starts(req.path, prefix)
            end
            function describe(req) return { path = req.path, segments = #req.segments, first = req.segments[1] } end
            """)
        #expect(Set(engine.functionNames) == ["needs_login", "describe"])
        let request: RuleValue = ["path": "/orders/7", "segments": ["orders", "7"]]
        #expect(try engine.evaluate("needs_login", arguments: [request, [:]]).value == true)
        #expect(try engine.evaluate("needs_login", arguments: [request, ["user": "ann"]]).value == false)
        #expect(
            try engine.evaluate("describe", arguments: [request]).value == [
                "path": "/orders/7", "segments": 2, "first": "orders",
            ])
    }

    /// The tour's example (docs/tour.md, "Lua rules from Swift"), as written there.
    @Test func runsTheReadmeExample() throws {
        let engine = try RuleEngine(sources: [
            RuleSource(
                name: "rules/login.lua",
                text: """
                    local protected = { orders = true, wallet = true }
                    function needs_login(req, ctx)
                      return ctx.user == nil and protected[req.segments[1]] == true
                    end
                    """)
        ])
        let request: RuleValue = ["path": "/orders/7", "segments": ["orders", "7"]]
        #expect(try engine.evaluate("needs_login", arguments: [request, [:]]).value == .bool(true))
        let later = try engine.withArguments([request, ["user": "ann"]]) { calls throws(LuaError) in
            try calls.evaluate("needs_login").value
        }
        #expect(later == .bool(false))
    }

    @Test func buildsSharedArgumentsOnceForSeveralCalls() throws {
        let engine = try Self.engine(
            """
            function a(req) return req.n + 1 end
            function b(req) return req.n * 10 end
            function c(req, ctx) return ctx.flag end
            """)
        let results = try engine.withArguments([["n": 4], ["flag": true]]) { calls throws(LuaError) in
            [try calls.evaluate("a").value, try calls.evaluate("b").value, try calls.evaluate("c").value]
        }
        #expect(results == [5, 40, true])
    }

    @Test func reportsInstructionsUsed() throws {
        // Counts, not time: the time backstop must not end a slow run (thread sanitizer, busy cores).
        let engine = try Self.engine(
            "function spin(req) local x = 0 for i = 1, req.n do x = x + i end return x end",
            limits: SandboxLimits(decisionTime: .seconds(120)))
        let small = try engine.evaluate("spin", arguments: [["n": 10]])
        let large = try engine.evaluate("spin", arguments: [["n": 100_000]])
        #expect(small.value == 55)
        #expect(small.instructions < 1_000)
        #expect(large.instructions >= 200_000)
    }

    @Test func refusesToAssignGlobalsOrChangeLoadTimeTablesWhileEvaluating() throws {
        let engine = try Self.engine(
            """
            config = { limit = 3, tags = { "a" } }
            function bump() config.limit = config.limit + 1 end
            function tag() table.insert(config.tags, "b") end
            function define() helper = function() end end
            function read() return config.limit .. #config.tags end
            """)
        for function in ["bump", "tag", "define"] {
            let error = #expect(throws: LuaError.self) { try engine.evaluate(function) }
            #expect(
                error?.message.contains("attempt to modify a read-only table") == true,
                "\(function): \(error?.description ?? "")")
        }
        #expect(try engine.evaluate("read").value == "31")
    }

    @Test func refusesABundleWhoseFunctionAssignsASharedVariable() throws {
        let error = #expect(throws: LuaError.self) {
            try Self.engine(
                """
                local hits = 0

                function count(req)
                  hits = hits + 1
                  return hits
                end
                """, name: "rules/counter.lua")
        }
        #expect(error?.code == .sharedState)
        #expect(
            error?.description == """
                rules/counter.lua:3: the function defined here assigns to "hits", a variable outside it that every \
                evaluation shares; rules may not keep state between evaluations — make it a local inside the function
                """)
    }

    @Test func findsSharedAssignmentsInNestedAndHelperFunctions() throws {
        let nested = #expect(throws: LuaError.self) {
            try Self.engine(
                """
                local seen = false
                function rule() return (function() seen = true end)() end
                """)
        }
        #expect(nested?.code == .sharedState)
        let helper = #expect(throws: LuaError.self) {
            try Self.engine(
                """
                local last
                local helpers = { remember = function(x) last = x end }
                function rule(req) helpers.remember(req) end
                """)
        }
        #expect(helper?.code == .sharedState)
        #expect(helper?.message.contains("\"last\"") == true)
    }

    @Test func allowsFunctionsToAssignTheirOwnEvaluationsLocals() throws {
        let engine = try Self.engine(
            """
            function sorted(req)
              local comparisons = 0
              local items = { 3, 1, 2 }
              table.sort(items, function(a, b) comparisons = comparisons + 1; return a < b end)
              return items[1] .. items[2] .. items[3] .. ":" .. tostring(comparisons > 0)
            end
            """)
        #expect(try engine.evaluate("sorted").value == "123:true")
    }

    @Test func refusesLoadTimeTablesWithMetatables() {
        let error = #expect(throws: LuaError.self) {
            try Self.engine(
                """
                local Class = {}
                Class.__index = Class
                local instance = setmetatable({}, Class)
                function rule() return instance end
                """)
        }
        #expect(error?.code == .sharedState)
        #expect(error?.message.contains("a table with a metatable cannot outlive the bundle's loading") == true)
    }

    @Test(arguments: [
        // A C closure that keeps its position: each evaluation would take the next word.
        ("local words = string.gmatch('a b', '%a+')\nfunction rule() return words() end", "rule (upvalue 1)"),
        (
            "local words = string.gmatch('a b', '%a+')\ninterceptor { name = 'i', all = true, run = function() return words() end }",
            "rules/policy.lua:2 (upvalue 1)"
        ),
        ("state = { next_word = string.gmatch('a b', '%a+') }\nfunction rule() return nil end", "state.next_word"),
        ("words = string.gmatch('a b', '%a+')\nfunction rule() return nil end", "words"),
    ])
    func refusesLoadTimeFunctionsWithStateOfTheirOwn(source: String, path: String) {
        let error = #expect(throws: LuaError.self) {
            try RuleEngine(sources: [RuleSource(name: "rules/policy.lua", text: source)])
        }
        #expect(error?.code == .sharedState)
        #expect(
            error?.message
                == "\(path): an iterator or other function with state of its own, made while the bundle loads, "
                + "cannot outlive the loading (rules would share it and change it between evaluations); "
                + "create it inside the rule function")
    }

    @Test func keepsLoadTimeCFunctionsWithoutState() throws {
        // `ipairs`'s stepper keeps nothing between calls: a bundle may hold it.
        let engine = try RuleEngine(sources: [
            RuleSource(
                name: "rules/policy.lua",
                text: """
                    local step = ipairs({})
                    function rule() local _, v = step({ "x" }, 0); return v end
                    """)
        ])
        #expect(try engine.evaluate("rule").value == "x")
    }

    @Test func reportsLoadingErrorsWithFileAndLine() {
        let syntax = #expect(throws: LuaError.self) {
            try RuleEngine(sources: [
                RuleSource(name: "rules/a.lua", text: "function a() end"),
                RuleSource(name: "rules/b.lua", text: "function b()\n  return =\nend"),
            ])
        }
        #expect(syntax?.description == "rules/b.lua:2: unexpected symbol near '='")
        let loop = #expect(throws: LuaError.self) {
            try RuleEngine(
                sources: [RuleSource(name: "rules/spin.lua", text: "while true do end")],
                limits: SandboxLimits(instructions: 10_000))
        }
        #expect(loop?.code == .instructionBudget)
        #expect(loop?.chunkName == "rules/spin.lua")
    }

    /// A rule stopped by its budget is placed at the line that was running then — not
    /// where its function starts —, wherever that line is: in the rule, in a function it
    /// called (in another file too, or through a tail call), under a `pcall`, in a library
    /// function charged for its work, in a chunk the rule compiled. Only when the heap grew
    /// past the budget and Lua raised before any line could be read does the error fall
    /// back to where the function starts, and say why.
    @Test(arguments: [
        ("function rule()\n  local n = 0\n  while true do n = n + 1 end\nend", "main.lua:3"),
        ("local function spin()\n  while true do end\nend\nfunction rule()\n  spin()\nend", "main.lua:2"),
        ("local function spin()\n  while true do end\nend\nfunction rule()\n  return spin()\nend", "main.lua:2"),
        ("function rule()\n  return spin_elsewhere()\nend", "lib.lua:3"),
        ("function rule()\n  local ok = pcall(function() while true do end end)\n  return ok\nend", "main.lua:2"),
        (
            "function rule()\n  local ok = xpcall(function() while true do end end, print)\n  return ok\nend",
            "main.lua:2"
        ),
        ("function rule()\n  local x = 1\n  return string.rep('x', 100000)\nend", "main.lua:3"),
        ("function rule()\n  while true do\n    for _ in pairs({ 1, 2 }) do end\n  end\nend", "main.lua:3"),
        ("function rule()\n  return load('local n = 0\\nwhile true do end')()\nend", "(load):2"),
    ])
    func namesTheLineRunningWhenTheBudgetRunsOut(_ rule: String, _ place: String) throws {
        let engine = try RuleEngine(
            sources: [
                RuleSource(
                    name: "lib.lua",
                    text: "-- a helper in another file\nfunction spin_elsewhere()\n  while true do end\nend"),
                RuleSource(name: "main.lua", text: rule),
            ],
            limits: SandboxLimits(instructions: 10_000, decisionTime: .seconds(120)))
        let error = #expect(throws: LuaError.self) { try engine.evaluate("rule") }
        #expect(error?.code == .instructionBudget)
        #expect(
            error?.description
                == "\(place): instruction budget of 10000 exceeded; the rule runs too long (a loop that never ends?)")
    }

    /// The time backstop, too, names the line running when the time ran out (the clock is
    /// read every thousand instructions: a nanosecond has passed at the second reading).
    @Test func namesTheLineRunningWhenTheTimeRunsOut() throws {
        let engine = try Self.engine(
            "function rule()\n  local n = 0\n  while true do n = n + 1 end\nend",
            limits: SandboxLimits(instructions: 100_000_000, decisionTime: .nanoseconds(1)))
        let error = #expect(throws: LuaError.self) { try engine.evaluate("rule") }
        #expect(error?.code == .timeLimit)
        #expect(
            error?.description.hasPrefix("rules/main.lua:3: ran longer than the time limit of ") == true,
            "\(error?.description ?? "")")
    }

    /// The one place a budget error cannot name the line running: the heap grew past the
    /// budget (each new block is charged), and Lua raised the memory error the spent
    /// budget turns into before any line was read.
    @Test func placesABudgetErrorRaisedWhileTheHeapGrewWhereTheFunctionStarts() throws {
        let engine = try Self.engine(
            "local x = 1\nfunction rule()\n  local s = 'x'\n  for _ = 1, 20 do s = s .. s end\nend",
            limits: SandboxLimits(instructions: 10_000, decisionTime: .seconds(120)))
        let error = #expect(throws: LuaError.self) { try engine.evaluate("rule") }
        #expect(
            error?.description
                == "rules/main.lua:2: instruction budget of 10000 exceeded; the rule runs too long "
                + "(a loop that never ends?) (the line where the function starts: the budget ran out where no "
                + "line of a rule was running, such as while the heap grew)")
    }

    @Test func namesAnUnknownFunction() throws {
        let engine = try Self.engine("function known() end")
        let error = #expect(throws: LuaError.self) { try engine.evaluate("unknown") }
        #expect(error?.message == "the bundle defines no function \"unknown\"")
    }

    @Test func sendsPrintToTheLogger() throws {
        let log = CapturedLog()
        let logger = log.logger
        let engine = try RuleEngine(
            sources: [RuleSource(name: "p.lua", text: "function say(req) print('hello', req.n) end")], logger: logger)
        _ = try engine.evaluate("say", arguments: [["n": 7]])
        #expect(log.messages == ["hello\t7"])
    }

    @Test func printGoesWhereRuleOutputDivertsItForTheWorkInside() throws {
        let engineLog = CapturedLog()
        let diverted = CapturedLog()
        let engine = try RuleEngine(
            sources: [RuleSource(name: "p.lua", text: "function say(req) print('n', req.n) log.warn('w', req.n) end")],
            logger: engineLog.logger)
        _ = try RuleOutput.divert(to: diverted.logger) {
            Result { () throws(LuaError) in try engine.evaluate("say", arguments: [["n": 1]]) }
        }.get()
        _ = try engine.evaluate("say", arguments: [["n": 2]])
        #expect(diverted.messages == ["n\t1", "w\t1"])
        #expect(engineLog.messages == ["n\t2", "w\t2"])
    }

    @Test func lendsEachConcurrentEvaluationItsOwnEngine() async throws {
        let pool = try RuleEnginePool(
            sources: [
                RuleSource(
                    name: "sum.lua",
                    text: """
                        function sum(req) local total = 0 for i = 1, #req.items do total = total + req.items[i] end return total end
                        """)
            ], maximumIdle: 4)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<200 {
                        let items = (0..<(task + round % 5)).map { RuleValue.int(Int64($0)) }
                        let expected = Int64(items.count * (items.count - 1) / 2)
                        let result = try pool.withEngine { engine throws(LuaError) in
                            try engine.evaluate("sum", arguments: [["items": .array(items)]])
                        }
                        #expect(result.value == .int(expected))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(pool.enginesCreated <= 9)
    }
}
