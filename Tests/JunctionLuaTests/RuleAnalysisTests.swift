import JunctionLua
import Testing

/// What ``RuleAnalysis`` reads from compiled rules, as a table: Lua files in, every use
/// it reports out as `FILE:LINE: kind name` — and what it must not report.
@Suite struct RuleAnalysisTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var files: [String]
        var expected: [String]

        init(_ name: String, _ files: String..., expected: [String]) {
            self.name = name
            self.files = files
            self.expected = expected
        }

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            "a misspelt global called in a rule",
            """
            interceptor { name = "beta", all = true, run = function(req, ctx)
              if rolout("beta", ctx.user_id, 10) then return nil end
            end }
            """,
            expected: ["a.lua:2: global rolout"]),
        Case(
            "a misspelt library, a misspelt field of a library, a field of _G",
            """
            function describe(req, ctx)
              local a = strng.format("%d", 1)
              local b = url.encdoe(req.url) .. string.fromat("x") .. version.compair("1", "2")
              log.inf("x")
              return _G.nexxt, _G.string.upper("x"), _G.describe
            end
            """,
            expected: [
                "a.lua:2: global strng", "a.lua:5: global nexxt", "a.lua:3: field url.encdoe",
                "a.lua:3: field string.fromat", "a.lua:3: field version.compair", "a.lua:4: field log.inf",
            ]),
        Case(
            "what the sandbox leaves out is undefined too",
            "function now() return os.time(), require(\"x\"), io, debug.traceback() end",
            expected: [
                "a.lua:1: global os", "a.lua:1: global require", "a.lua:1: global io", "a.lua:1: global debug",
            ]),
        Case(
            "top-level code and functions at any depth are read",
            """
            local limit = LIMITT or 10
            function outer(req)
              return function()
                local function inner() return undefined_helper(limit) end
                return inner()
              end
            end
            """,
            expected: ["a.lua:1: global LIMITT", "a.lua:4: global undefined_helper"]),
        Case(
            "locals, parameters, upvalues, the sandbox's globals and the bundle's own are defined",
            """
            local helpers = {}
            local function starts(s, p) return s:sub(1, #p) == p end
            CONFIG = { beta = 10 }
            function is_beta(ctx) return rollout("beta", ctx.user_id, CONFIG.beta) end
            interceptor { name = "all", all = true, run = function(req, ctx)
              local n = select("#", 1, 2) + #req.segments + math.max(1, 2) + tonumber("3")
              for k, v in pairs(req.params) do n = n + (type(v) == "number" and v or 0) end
              for k, v in next, {} do end
              local ok = pcall(error, "x") and xpcall(print, tostring)
              local t = setmetatable({}, { __index = table }); rawset(t, "x", 1)
              if starts(req.path, "/x") and is_beta(ctx) and later_defined() and _VERSION then
                return redirect(url.encode("a")), reject("no"), gate("myapp://login"), rewrite { params = {} },
                  respond(1), next(), log.info(utf8.char(72)), string.format("%s", version.compare("1", "2"))
              end
              return helpers, _G.CONFIG, _ENV.CONFIG, ("x"):upper(), load("return 1")
            end }
            group("login", function(req, ctx) return nil end)
            fallback(function(req, ctx) return nil end)
            redirect { from = "myapp://a", to = "myapp://b", when = function(req, ctx) return is_beta(ctx) end }
            function later_defined() return true end
            """,
            expected: []),
        Case(
            "a global another file defines is defined",
            "function a(req) return from_b(req) end",
            "function from_b(req) return 1 end",
            expected: []),
        Case(
            "a local _ENV is not the environment",
            """
            function scoped()
              local _ENV = { anything = 1 }
              return anything
            end
            function captured()
              local _ENV = { x = 1 }
              return function() return x end
            end
            function scoped_writes()
              local _ENV = {}
              x = 1
              return function() y = 2 end
            end
            """,
            expected: []),
        Case(
            "a global name longer than 40 bytes is read through registers",
            "function f() return a_global_name_that_is_longer_than_forty_bytes_in_all() end",
            expected: ["a.lua:1: global a_global_name_that_is_longer_than_forty_bytes_in_all"]),
        Case(
            "a name beyond a function's 256th constant is read through registers",
            "function f()\n  local t = {" + (1...300).map { "\"k\($0)\"" }.joined(separator: ", ")
                + "}\n  return rolout(t)\nend",
            expected: ["a.lua:3: global rolout"]),
        Case(
            "a rule that assigns a global fails when it runs; reading it back is not reported again",
            """
            function count(req)
              total = 1
              local function nested() last_seen = req.url end
              nested()
              return total
            end
            """,
            expected: ["a.lua:2: assigns total", "a.lua:3: assigns last_seen"]),
        Case(
            "globals assigned while loading are definitions, in top-level code and in helpers it calls",
            """
            LIMIT = 3
            local function define() DEFAULTS = { n = 1 } end
            define()
            function use() return LIMIT + DEFAULTS.n end
            """,
            expected: []),
        Case(
            "text a rule compiles with load is out of reach",
            "function f() return load(\"return rolout()\")() end",
            expected: []),
        Case(
            "req.source compared with literals, either side, == and ~=",
            """
            function a(req)
              if req.source == "push" or "h5" == req.source then return 1 end
              if req.source ~= "pusj" then return 2 end
              return function() return req.source == "exernal" end
            end
            """,
            expected: ["a.lua:2: source push", "a.lua:2: source h5", "a.lua:3: source pusj", "a.lua:4: source exernal"]
        ),
        Case(
            "a local holding req.source for its whole life is followed through branches",
            """
            function a(req)
              local s = req.source
              if s == "push" then return 1 elseif s == "univeral_link" then return 2 end
              for i = 1, 2 do if s == "h5" then return 3 end end
            end
            """,
            expected: ["a.lua:3: source push", "a.lua:3: source univeral_link", "a.lua:4: source h5"]),
        Case(
            "a literal beyond a function's 256th constant is compared in a register",
            "function f(req)\n  local t = {" + (1...300).map { "\"k\($0)\"" }.joined(separator: ", ")
                + "}\n  return req.source == \"pusj\", \"pusj2\" == req.source\nend",
            expected: ["a.lua:3: source pusj", "a.lua:3: source pusj2"]),
        Case(
            "values that are not req.source are not followed",
            """
            function a(req, ctx)
              if ctx.source == "x1" or req.src == "x2" then return 1 end
              local s = req.source
              s = "web"
              if s == "x3" then return 2 end
              local t = req.source
              if ctx.flag then t = ctx.kind end
              if t == "x4" then return 3 end
              local u = ctx.flag and ctx.kind or req.source
              if u == "x5" then return 4 end
              local v = req.source
              local function change() v = ctx.kind end
              change()
              if v == "x6" then return 5 end
              local w = req.source == "push" and ctx.kind or "h5"
              if w == "x7" then return 6 end
            end
            """,
            expected: ["a.lua:15: source push"]),
    ]

    @Test(arguments: cases)
    func reportsWhatTheCodeUses(_ testCase: Case) throws {
        let sources = testCase.files.enumerated().map { index, text in
            RuleSource(name: String(UnicodeScalar(UInt8(ascii: "a") + UInt8(index))) + ".lua", text: text)
        }
        let engine = try RuleEngine(sources: sources)
        #expect(Self.render(try engine.analyze(sources)) == testCase.expected)
    }

    @Test func listsTheDefinedNamesAndTheLibrariesFields() throws {
        let sources = [RuleSource(name: "a.lua", text: "HELPER = 1\nfunction rule() end\nurl_extra = {}")]
        let analysis = try RuleEngine(sources: sources).analyze(sources)
        for name in ["HELPER", "rule", "url_extra", "_G", "rollout", "redirect", "string", "next", "pcall"] {
            #expect(analysis.definedGlobals.contains(name), "\(name)")
        }
        #expect(analysis.definedGlobals == analysis.definedGlobals.sorted())
        #expect(!analysis.definedGlobals.contains("os") && !analysis.definedGlobals.contains("collectgarbage"))
        #expect(analysis.libraryFields["url"] == ["build", "decode", "encode", "parse"])
        #expect(analysis.libraryFields["version"] == ["compare"])
        #expect(analysis.libraryFields["string"]?.contains("dump") == false)
        #expect(RuleAnalysis.withheldGlobals.isDisjoint(with: analysis.definedGlobals))
    }

    @Test func aBundleGlobalThatReplacesALibraryIsNotCheckedAsTheLibrary() throws {
        let sources = [
            RuleSource(name: "a.lua", text: "url = { mine = 1 }\nfunction f() return url.mine, url.encode end")
        ]
        let analysis = try RuleEngine(sources: sources).analyze(sources)
        #expect(analysis.libraryFields["url"] == nil)
        #expect(analysis.undefinedFields.isEmpty)
    }

    @Test func anAssignedGlobalIsReportedOnceThoughTheFunctionIsMadeTwice() throws {
        let sources = [
            RuleSource(
                name: "a.lua",
                text: """
                    local function make() return function() hits = 1 end end
                    first, second = make(), make()
                    """)
        ]
        let engine = try RuleEngine(sources: sources)
        #expect(Self.render(try engine.analyze(sources)) == ["a.lua:1: assigns hits"])
        // It loads: the assignment fails only when it runs.
        #expect(throws: LuaError.self) { try engine.evaluate("first") }
    }

    @Test func aPoolAnalysesWithOneOfItsEngines() throws {
        let sources = [RuleSource(name: "a.lua", text: "function f(req) return rolout(req) end")]
        let pool = try RuleEnginePool(sources: sources)
        #expect(Self.render(try pool.analysis()) == ["a.lua:1: global rolout"])
    }

    /// Lua files in, the literal redirect targets found for each declared function out.
    static let redirectCases: [Case] = [
        Case(
            "a literal target returned by each kind of declared function, in its own body",
            """
            interceptor { name = "kill-switch", all = true, run = function(req, ctx)
              if ctx.hour >= 23 then return redirect("https://m.example.com/live") end
            end }
            group("login", function(req, ctx)
              local verdict = redirect("myapp://login", { exts = { animated = false } })
              return ctx.user == nil and verdict or nil
            end)
            fallback(function(req) return _G.redirect('myapp://home') end)
            """,
            expected: [
                "interceptor kill-switch: a.lua:2 https://m.example.com/live", "group login: a.lua:5 myapp://login",
                "fallback: a.lua:8 myapp://home",
            ]),
        Case(
            "a global function given as run is found where it is defined, for each declaration of it",
            """
            function kill_switch(req, ctx)
              return redirect(
                "https://m.example.com/live"
              )
            end
            """,
            """
            interceptor { name = "first", all = true, run = kill_switch }
            interceptor { name = "second", route = "live", run = kill_switch }
            """,
            expected: [
                "interceptor first: a.lua:2 https://m.example.com/live",
                "interceptor second: a.lua:2 https://m.example.com/live",
            ]),
        Case(
            "every literal target once per line, in code order",
            """
            group("vip", function(req, ctx)
              if ctx.a then return redirect("myapp://a") end
              if ctx.b then return redirect("myapp://b") elseif ctx.c then return redirect("myapp://a") end
              return redirect("myapp://b")
            end)
            """,
            expected: [
                "group vip: a.lua:2 myapp://a", "group vip: a.lua:3 myapp://b", "group vip: a.lua:3 myapp://a",
                "group vip: a.lua:4 myapp://b",
            ]),
        Case(
            "targets that are built, chosen or held in a variable are out of reach",
            """
            local HOME = "myapp://home"
            interceptor { name = "built", all = true, run = function(req, ctx)
              local target = "myapp://x"
              if ctx.a then return redirect("https://m.example.com/" .. req.path) end
              if ctx.b then return redirect(ctx.c and "myapp://c" or "myapp://d") end
              if ctx.e then return redirect(url.encode("myapp://e")) end
              if ctx.f then return redirect(HOME) end
              if ctx.g then return redirect(target .. "") end
              return redirect()
            end }
            """,
            expected: []),
        Case(
            "a declaration, a dropped call, a nested function, a helper and loaded text are not the function's verdicts",
            """
            redirect { from = "myapp://old", to = "myapp://new" }
            local function helper() return redirect("myapp://helper") end
            interceptor { name = "indirect", all = true, run = function(req, ctx)
              redirect("myapp://dropped")
              local later = function() return redirect("myapp://nested") end
              return helper()
            end }
            fallback(load("return function() return redirect('myapp://loaded') end", "loaded")())
            """,
            expected: []),
        Case(
            "a local or a bundle global named redirect is not the sandbox's",
            """
            group("local", function(req, ctx)
              local redirect = function(target) return reject(target) end
              return redirect("myapp://local")
            end)
            """,
            """
            function redirect(target) return reject(target) end
            group("global", function(req, ctx) return redirect("myapp://global") end)
            """,
            expected: []),
        Case(
            "functions on the same lines are told apart only when they call redirect alike",
            """
            group("a", function() return redirect("myapp://a") end) group("b", function() return nil end)
            group("e", function() return nil end) group("f", function() return redirect("myapp://f") end)
            group("c", function() return redirect("myapp://c") end) group("d", function() return redirect("myapp://c") end)
            """,
            expected: ["group c: a.lua:3 myapp://c", "group d: a.lua:3 myapp://c"]),
    ]

    @Test(arguments: redirectCases)
    func findsTheLiteralTargetsOfRedirectsDeclaredFunctionsReturn(_ testCase: Case) throws {
        let sources = testCase.files.enumerated().map { index, text in
            RuleSource(name: String(UnicodeScalar(UInt8(ascii: "a") + UInt8(index))) + ".lua", text: text)
        }
        let engine = try RuleEngine(sources: sources)
        let analysis = try engine.analyze(sources)
        let declarations = engine.declarations
        let named =
            declarations.interceptors.map { ($0.function, "interceptor \($0.name)") }
            + declarations.groups.map { ($0.function, "group \($0.name)") }
            + declarations.fallbacks.map { ($0.function, "fallback") }
        let rendered = named.flatMap { function, name in
            (analysis.redirectTargets[function] ?? []).map { "\(name): \($0.file):\($0.line) \($0.name)" }
        }
        #expect(rendered == testCase.expected)
        #expect(Set(analysis.redirectTargets.keys).isSubset(of: Set(named.map(\.0))))
    }

    static let respondCases: [Case] = [
        Case(
            "a rule that responds, and rules that do not",
            """
            interceptor { name = "answer", route = "x", run = function(req, ctx) return respond({ ok = true }) end }
            interceptor { name = "audit", all = true, run = function(req, ctx) log.info(req.url) end }
            group("login", function(req, ctx) if ctx.user == nil then return gate("myapp://login") end end)
            fallback(function(req, ctx) return redirect("myapp://home") end)
            """,
            expected: ["interceptor answer"]),
        Case(
            "respond in a nested function counts for the declared function around it",
            """
            interceptor { name = "nested", all = true, run = function(req, ctx)
              local answer = function() return respond(1) end
              return answer()
            end }
            interceptor { name = "plain", all = true, run = function() end }
            group("vip", function(req, ctx)
              return _G.respond(2)
            end)
            """,
            expected: ["interceptor nested", "group vip"]),
        Case(
            "a helper that responds makes every rule one that may",
            """
            local function answer(value) return respond(value) end
            interceptor { name = "a", all = true, run = function() return answer(1) end }
            group("g", function() end)
            """,
            expected: ["interceptor a", "group g"]),
        Case(
            "respond kept in a local by a file's main code makes every rule one that may",
            """
            local R = respond
            interceptor { name = "a", all = true, run = function() return R(1) end }
            group("g", function() end)
            """,
            expected: ["interceptor a", "group g"]),
        Case(
            "a helper in another file makes every rule one that may",
            """
            interceptor { name = "a", all = true, run = function() return answer() end }
            """,
            """
            function answer() return respond(1) end
            """,
            expected: ["interceptor a"]),
        Case(
            "a function compiled from text may respond",
            """
            interceptor { name = "p", all = true, run = function() end }
            fallback(load("return function() return nil end", "=loaded")())
            """,
            expected: ["fallback"]),
    ]

    @Test(arguments: respondCases)
    func tellsWhichDeclaredFunctionsMayRespond(_ testCase: Case) throws {
        let sources = testCase.files.enumerated().map { index, text in
            RuleSource(name: String(UnicodeScalar(UInt8(ascii: "a") + UInt8(index))) + ".lua", text: text)
        }
        let engine = try RuleEngine(sources: sources)
        let analysis = try engine.analyze(sources)
        let declarations = engine.declarations
        let named =
            declarations.interceptors.map { ($0.function, "interceptor \($0.name)") }
            + declarations.groups.map { ($0.function, "group \($0.name)") }
            + declarations.fallbacks.map { ($0.function, "fallback") }
        #expect(named.filter { !analysis.nonResponding.contains($0.0) }.map(\.1) == testCase.expected)
    }

    /// Every use as `FILE:LINE: kind name`: globals, fields, assignments, then sources.
    static func render(_ analysis: RuleAnalysis) -> [String] {
        analysis.undefinedGlobals.map { "\($0.file):\($0.line): global \($0.name)" }
            + analysis.undefinedFields.map { "\($0.file):\($0.line): field \($0.table).\($0.field)" }
            + analysis.globalAssignments.map { "\($0.file):\($0.line): assigns \($0.name)" }
            + analysis.sourceComparisons.map { "\($0.file):\($0.line): source \($0.name)" }
    }
}
