import JunctionCore
import JunctionLua
import Logging
import Testing
import JunctionTestSupport

/// Nothing crosses evaluations: what one decision did — with whose token, which patterns,
/// how much memory — cannot be read back by a later one, whether by value, by address, by
/// what the collector kept, or by where a budget runs out.
@Suite struct SandboxIsolationTests {
    // MARK: - Helpers

    /// An engine of one file, `iso.lua`.
    static func engine(
        _ text: String, limits: SandboxLimits = SandboxLimits(decisionTime: .seconds(120)), logger: Logger? = nil
    ) throws -> RuleEngine {
        try RuleEngine(
            sources: [RuleSource(name: "iso.lua", text: text)], limits: limits,
            logger: logger ?? Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    /// The route every request here matches; `zzz` is a declared parameter no path has.
    static let routes: RouteTable = try! RouteTable(routes: [
        Route(name: "r", pattern: "myapp://r/:n", parameters: [ParameterDeclaration("zzz", type: .string)])
    ])

    static func request(
        _ url: String = "myapp://r/1", exts: [String: RuleValue] = [:], source: RequestSource = .internal
    ) throws -> RuleRequest {
        let match = try #require(try routes.match(url) as RouteMatch?)
        return RuleRequest(match: match, request: RouteRequest(url, exts: exts, source: source))
    }

    /// One decision: the interceptor `name` run on `url` from `source` with `ctx`, as a
    /// decider runs it.
    static func decide(
        _ engine: RuleEngine, _ name: String, context: ContextSnapshot = .empty, url: String = "myapp://r/1",
        exts: [String: RuleValue] = [:], source: RequestSource = .internal
    ) throws -> Result<RuleResult, LuaError> {
        let function = try #require(engine.declarations.interceptors.first { $0.name == name }).function
        let request = try request(url, exts: exts, source: source)
        return engine.withSession(context: context) { session in
            session.setRequest(request)
            return Result { () throws(LuaError) in try session.evaluate(declared: function) }
        }
    }

    /// What a decision ended with, as one line: its response, or its error's code.
    static func outcome(_ result: Result<RuleResult, LuaError>) -> String {
        switch result {
        case .success(let result):
            guard case .table(let fields) = result.value, let value = fields["value"] else { return "\(result.value)" }
            return "\(value)"
        case .failure(let error): return "\(error.code)"
        }
    }

    // MARK: - The red team's leak

    /// The victim's token, and a decoy of the same length and alphabet.
    static let token = "s3cr3tT0k3n-9f2c"
    static let decoy = "q7xw4uZ1m8v-3a6b"

    /// A bundle that makes a user's token into patterns — every prefix, through each
    /// pattern function, and one pattern whose length is the token's first byte — and a
    /// probe that asks whether a guess was among them. A probe cannot read a count of the
    /// heap any more; it pays for its question with `ctx.work` bytes of `string.rep`,
    /// calibrated so that the answer is whether its budget (or memory) runs out.
    static let leak = """
        interceptor { name = "remember", all = true, run = function(req, ctx)
          local token = ctx.user.token
          for i = 1, #token do
            local prefix = token:sub(1, i)
            string.find("x", prefix .. "%d*")
            string.match("x", "^" .. prefix .. "+")
            string.gsub("x", prefix .. "-", "")
            for _ in string.gmatch("x", "(" .. prefix .. ")*") do end
          end
          string.find("x", ("x"):rep(token:byte(1) + 40) .. "*")
        end }
        interceptor { name = "probe", all = true, run = function(req, ctx)
          local guess = ctx.guess
          string.find("x", guess .. "%d*")
          string.match("x", "^" .. guess .. "+")
          string.gsub("x", guess .. "-", "")
          for _ in string.gmatch("x", "(" .. guess .. ")*") do end
          string.find("x", ("x"):rep(guess:byte(1) + 40) .. "*")
          local paid = ("x"):rep(ctx.work)
          return respond(#paid >= 0 and "fits")
        end }
        """

    /// The probe's outcome on a new engine after one decision of a user with `token`.
    static func probe(after token: String, guess: String, work: Int, limits: SandboxLimits) throws -> String {
        let engine = try engine(leak, limits: limits)
        _ = try decide(engine, "remember", context: ContextSnapshot(["user": ["token": .string(token)]]))
        return outcome(
            try decide(engine, "probe", context: ContextSnapshot(["guess": .string(guess), "work": .int(Int64(work))])))
    }

    /// The most work the probe can pay for after the decoy's decision.
    static func threshold(guess: String, limits: SandboxLimits, upTo high: Int) throws -> Int {
        var (low, high) = (0, high)  // fits at low, not at high
        #expect(try probe(after: decoy, guess: guess, work: low, limits: limits) == "\"fits\"")
        #expect(try probe(after: decoy, guess: guess, work: high, limits: limits) != "\"fits\"")
        while high - low > 1 {
            let middle = (low + high) / 2
            if try probe(after: decoy, guess: guess, work: middle, limits: limits) == "\"fits\"" {
                low = middle
            } else {
                high = middle
            }
        }
        return low
    }

    /// Regression: the red team's cross-user leak. A bundle made one user's token into
    /// patterns, and a later decision — another user's — asked whether a guess was among
    /// them, by `collectgarbage("count")`. With that gone, the same question could still be
    /// asked by where the budget runs out: the sandbox cached each pattern's shape across
    /// evaluations (keeping its string), and an interned string costs nothing to make
    /// again, so the probe was cheaper after the victim's decision, and work calibrated to
    /// just fit after the decoy's fitted by a margin. The probe must end the same way at
    /// its threshold and one unit past it whichever decision came before.
    @Test(arguments: [
        ("instructionBudget", SandboxLimits(instructions: 200_000, decisionTime: .seconds(120)), 200_000),
        (
            "memory",
            SandboxLimits(
                memoryBytes: 1 << 20, instructions: 50_000_000, decisionInstructions: 50_000_000,
                decisionTime: .seconds(120)), 1 << 20
        ),
    ])
    func aTokenMadeIntoPatternsCannotBeReadBackByALaterDecision(_ bound: String, limits: SandboxLimits, high: Int)
        throws
    {
        for guess in [String(Self.token.prefix(6)), Self.token] {
            let threshold = try Self.threshold(guess: guess, limits: limits, upTo: high)
            #expect(try Self.probe(after: Self.decoy, guess: guess, work: threshold + 1, limits: limits) == bound)
            for work in [threshold, threshold + 1] {
                let afterDecoy = try Self.probe(after: Self.decoy, guess: guess, work: work, limits: limits)
                let afterVictim = try Self.probe(after: Self.token, guess: guess, work: work, limits: limits)
                #expect(afterVictim == afterDecoy, "guess \(guess), work \(work)")
            }
        }
    }

    /// Regression: growing the heap was charged to the budget, a byte an instruction, so
    /// what a rule paid depended on what earlier evaluations left: the strings they made
    /// (interned, a probe's copy cost nothing), and the size they grew Lua's string table
    /// to (a probe making its strings on a fresh engine paid for growing it). A rule that
    /// makes strings, keys and tables is charged exactly the same on a fresh engine and
    /// after another decision made 50,000 strings — the probe's among them.
    @Test func aRuleIsChargedTheSameWhateverStringsEarlierDecisionsMade() throws {
        let source = """
            interceptor { name = "make", all = true, run = function(req, ctx)
              local t, keys = {}, {}
              for i = 1, ctx.count do
                t[i] = ("s" .. i):upper()
                if i <= 1000 then keys["key" .. i] = i end
              end
              return respond(#ctx.token)
            end }
            """
        let limits = SandboxLimits(
            instructions: 100_000_000, instructionInterval: 1, decisionInstructions: 100_000_000,
            decisionTime: .seconds(120))
        let probe = ContextSnapshot(["count": 3_000, "token": "t"])
        let fresh = try Self.engine(source, limits: limits)
        let used = try Self.engine(source, limits: limits)
        _ = try Self.decide(used, "make", context: ContextSnapshot(["count": 50_000, "token": .string(Self.token)]))
            .get()
        let charged = try [fresh, used].map { try Self.decide($0, "make", context: probe).get().instructions }
        #expect(charged[0] == charged[1])
    }

    // MARK: - Everything a rule can read

    /// A probe that reads everything a rule can read — the globals and libraries, their
    /// values as `tostring` shows them, their `pairs` order and metatables, the string
    /// metatable, what refusals say — as one string; `exhaust` allocates until memory
    /// runs out, inside `pcall`. `secret` uses a user's token every way a rule can: as
    /// patterns, keys, strings, `rep`, concatenations, output and a metatable's upvalue.
    static let probes = """
        local globals = { "_G", "_VERSION", "assert", "error", "getmetatable", "ipairs", "load", "next", "pairs", "pcall",
          "print", "rawequal", "rawget", "rawlen", "rawset", "select", "setmetatable", "tonumber", "tostring", "type",
          "xpcall", "string", "table", "math", "utf8", "url", "log", "version", "rollout", "redirect", "interceptor",
          "group", "fallback", "reject", "gate", "rewrite", "respond", "collectgarbage", "os", "io", "debug", "coroutine",
          "package", "require", "dofile", "loadfile" }
        interceptor { name = "probe", all = true, run = function(req, ctx)
          local out, seen = {}, {}
          local function note(...)
            for i = 1, select("#", ...) do out[#out + 1] = tostring((select(i, ...))) end
          end
          local function walk(path, value, depth)
            note(path, type(value), value, getmetatable(value))
            if type(value) ~= "table" or seen[value] or depth > 3 then return end
            seen[value] = true
            local order = {}
            for k, v in pairs(value) do
              order[#order + 1] = tostring(k)
              walk(path .. "." .. tostring(k), v, depth + 1)
            end
            note(path .. " in pairs order: " .. table.concat(order, ","))
            local mt = getmetatable(value)
            if type(mt) == "table" then walk(path .. " metatable", mt, depth + 1) end
          end
          for _, name in ipairs(globals) do walk(name, _G[name], 0) end
          walk("string metatable", getmetatable(""), 0)
          note(collectgarbage and collectgarbage("count"))
          note(pcall(setmetatable, {}, { __mode = "k" }))
          note(pcall(setmetatable, {}, { __gc = print }))
          note(pcall(error), pcall(error, {}), pcall(string.rep), pcall(load, "return ..."))
          note(tostring(req), tostring(req.params), tostring(req.query), tostring(ctx), tostring(function() end), tostring({}))
          note(math.maxinteger, math.pi, 2^63, 1 / 3, -0.0, math.huge, string.format("%q", 0.1), #("x"):rep(100, ","))
          return respond(table.concat(out, "\\n"))
        end }
        interceptor { name = "exhaust", all = true, run = function(req, ctx)
          local t = {}
          local ok, message = pcall(function() for i = 1, 1e9 do t[i] = ("x"):rep(64) .. i end end)
          return respond(tostring(ok) .. " " .. tostring(message) .. " " .. #t)
        end }
        interceptor { name = "secret", all = true, run = function(req, ctx)
          local token = ctx.user.token
          local kept = { [token] = token, token = token }
          for i = 1, #token do
            local prefix = token:sub(1, i)
            kept[prefix] = prefix:rep(i)
            string.find(token, prefix .. "%w*")
            string.match(token, "^" .. prefix .. "(.-)$")
            string.gsub(token, prefix, "%0%0")
            for _ in string.gmatch(token, "(" .. prefix .. ")") do end
          end
          local long = token:rep(1000, token)
          local joined = token .. long .. token:upper() .. token:reverse()
          local shown = setmetatable({}, { __index = function() return token end, __tostring = function() return token end })
          print(token, shown, #joined)
          log.info(tostring(shown))
          kept[joined] = #joined
          return respond(#joined)
        end }
        interceptor { name = "ordinary", all = true, run = function(req, ctx)
          local id = req.path:match("^/(%d+)$")
          return respond((ctx.user and ctx.user.token or "guest") .. ":" .. tostring(id) .. ":" .. req.url:upper())
        end }
        """

    /// A long random token, unlike anything the sandbox holds.
    static func randomToken(_ length: Int) -> String {
        let letters = Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789")
        return String((0..<length).map { _ in letters.randomElement()! })
    }

    @Test func aProbeReadsTheSameBeforeAndAfterAnotherUsersSecretAndTwentyOtherDecisions() throws {
        let engine = try Self.engine(
            Self.probes,
            limits: SandboxLimits(
                memoryBytes: 2 << 20, instructions: 50_000_000, decisionInstructions: 50_000_000,
                decisionTime: .seconds(120)))
        let before = try Self.decide(engine, "probe").get().value
        let exhaustedBefore = Self.outcome(try Self.decide(engine, "exhaust"))
        #expect(exhaustedBefore == "memory")

        let token = Self.randomToken(64)
        let user = ContextSnapshot(["user": ["token": .string(token)]])
        #expect(Self.outcome(try Self.decide(engine, "secret", context: user)) == "128128")  // 64 × (2 + 1,999 + 1)
        for index in 0..<20 {
            let other = ContextSnapshot(["user": ["token": .string("user-\(index)")]])
            #expect(
                Self.outcome(try Self.decide(engine, "ordinary", context: other, url: "myapp://r/\(index)"))
                    == "\"user-\(index):\(index):MYAPP://R/\(index)\"")
        }

        let after = try Self.decide(engine, "probe").get().value
        #expect(after == before)
        #expect(Self.outcome(try Self.decide(engine, "exhaust")) == exhaustedBefore)
        // Bytes, not text: utf8.charpattern is not UTF-8.
        guard case .table(let fields) = after, case .bytes(let read)? = fields["value"] else {
            Issue.record("the probe returned \(after)")
            return
        }
        let text = String(decoding: read, as: UTF8.self)
        #expect(text.contains("string.gsub\nfunction\nfunction\nnil") && text.contains("url in pairs order: "))
        let bytes = Array(token.utf8)
        for start in 0...(bytes.count - 8) {
            let piece = String(decoding: bytes[start..<(start + 8)], as: UTF8.self)
            #expect(!text.contains(piece), "the probe read \(piece) of the token")
        }
    }

    // MARK: - Determinism

    static let shown = """
        function shown()
          local t = {}
          print(t, print, function() end, setmetatable({}, { __name = "named" }))
          log.info({}, string, req)
          log.warn(tostring(t), tostring(print), tostring(tostring))
          return table.concat({ tostring({}), tostring(print), tostring(function() end), tostring(string.rep),
            tostring(setmetatable({}, {})), tostring(_G), tostring(string), type(collectgarbage) }, " ")
        end
        """

    /// `pairs` visits keys in one order on every engine: Lua's own follows string hashes
    /// seeded per state from the clock and addresses, so a rule returning the first flag
    /// it found decided differently on two devices. Numbers ascending, strings by their
    /// bytes, then `false`, `true` — in plain tables, read-only arguments and `req`'s maps.
    static let orderProbe = """
        local function keys(t)
          local out = {}
          for k, v in pairs(t) do out[#out + 1] = tostring(k) .. "=" .. tostring(v) end
          return table.concat(out, " ")
        end
        function order(ctx)
          local t = { zeta = 1, alpha = 2, [3] = "c", [1] = "a", [2.5] = "x", beta = 3, [true] = "t", [false] = "f", [-1] = "m",
                      ["\u{E9}"] = "e", B = "upper" }
          local cleared, seen = { a = 1, b = 2, c = 3 }, {}
          for k in pairs(cleared) do seen[#seen + 1] = k; cleared.b = nil end
          return keys(t) .. " | " .. keys(ctx) .. " | " .. table.concat(seen, ",")
        end
        function big(n)
          local t = {}
          for i = 1, n do t["k" .. i] = i end
          local count = 0
          for _ in pairs(t) do count = count + 1 end
          return count
        end
        """

    @Test func pairsVisitsKeysInOneOrderOnEveryEngine() throws {
        let context: RuleValue = ["zulu": 1, "alpha": ["x": 1], "mike": true, "Bravo": "b"]
        let expected =
            "-1=m 1=a 2.5=x 3=c B=upper alpha=2 beta=3 zeta=1 \u{E9}=e false=f true=t"
            + " | Bravo=b alpha=table mike=true zulu=1 | a,c"
        for _ in 0..<3 {
            let engine = try Self.engine(Self.orderProbe)
            #expect(try engine.evaluate("order", arguments: [context]).value == .string(expected))
        }
    }

    /// Ordering the keys is charged: a key an element, and a comparison per key and level.
    @Test func pairsIsChargedForTheKeysItOrders() throws {
        let engine = try Self.engine(
            Self.orderProbe, limits: SandboxLimits(instructionInterval: 1, decisionTime: .seconds(120)))
        let small = try engine.evaluate("big", arguments: [10])
        let large = try engine.evaluate("big", arguments: [1_000])
        #expect(large.value == 1_000)
        // 990 more keys: at least 990 × (1 + log2 990) more units than the small table's, on
        // top of the loops' instructions.
        #expect(large.instructions - small.instructions > 990 * 11)
    }

    @Test func valuesShowNoAddressAndTheSameOnEveryEngine() throws {
        var shown: [RuleValue] = []
        var logged: [[String]] = []
        for _ in 0..<2 {
            let log = CapturedLog()
            let engine = try Self.engine(Self.shown, logger: log.logger)
            shown.append(try engine.evaluate("shown").value)
            logged.append(log.messages)
        }
        #expect(shown[0] == "table function function function table table table nil")
        #expect(logged[0] == ["table\tfunction\tfunction\tnamed", "table\ttable\tnil", "table\tfunction\tfunction"])
        #expect(shown[1] == shown[0] && logged[1] == logged[0])
        let address = /0x[0-9a-fA-F]+|[0-9a-fA-F]{8,}/
        #expect(!logged[0].contains { $0.contains(address) })
    }

    /// The prelude's own messages name a table or function key, or a chunk `load` was given
    /// a table as the name of, by its type: they showed its address, which a rule that
    /// caught them could read.
    @Test(arguments: [
        ("local _, e = pcall(interceptor, { [{}] = 1 })", "interceptor: unknown field table"),
        ("local _, e = pcall(redirect, { from = 'a', to = 'b', [print] = 1 })", "redirect: unknown field function"),
        ("local _, e = pcall(load('error(\"x\")', {}))", "table:1: x"),
    ])
    func theSandboxsOwnMessagesShowNoAddress(statement: String, message: String) throws {
        let engine = try Self.engine("\(statement)\ncaught = e\nfunction f() return caught end")
        #expect(try engine.evaluate("f").value == .string(message))
    }

    // MARK: - Weak tables and finalizers

    /// Statements (on line 2 of `f`) that would make a weak table or a finalizer, and the
    /// error each ends in.
    @Test(arguments: [
        (
            "setmetatable({}, { __mode = 'k' })",
            "setmetatable: weak tables (__mode) are not allowed in rules: when their entries go depends on the garbage collector"
        ),
        (
            "local mt = {} setmetatable({}, mt) mt.__mode = 'v'",
            "setmetatable: weak tables (__mode) are not allowed in rules: when their entries go depends on the garbage collector"
        ),
        (
            "local mt = {} setmetatable({}, mt) rawset(mt, '__mode', 'kv')",
            "setmetatable: weak tables (__mode) are not allowed in rules: when their entries go depends on the garbage collector"
        ),
        ("local t = {} setmetatable(t, t)", "setmetatable: a table cannot be its own metatable in rules"),
        (
            "local t = {} setmetatable(t, t) t.__mode = 'k'",
            "setmetatable: a table cannot be its own metatable in rules"
        ),
        ("setmetatable({}, { __gc = print })", "setmetatable: __gc finalizers are not allowed in rules"),
        (
            "local mt = {} setmetatable({}, mt) mt.__gc = print",
            "setmetatable: __gc finalizers are not allowed in rules"
        ),
        (
            "local mt = {} setmetatable({}, mt) rawset(mt, '__gc', print)",
            "setmetatable: __gc finalizers are not allowed in rules"
        ),
        (
            "local mt = {} setmetatable({}, mt) setmetatable(mt, nil) mt.__mode = 'k'",
            "cannot change a protected metatable"
        ),
        (
            "local mt = setmetatable({}, {}) setmetatable({}, mt)",
            "setmetatable: a metatable with a metatable of its own cannot be used in rules"
        ),
    ])
    func weakTablesAndFinalizersAreRefused(_ statement: String, _ message: String) throws {
        let engine = try Self.engine(
            "function f()\n  \(statement)\n  return 'made'\nend\nfunction g() return 'fine' end")
        let error = #expect(throws: LuaError.self) { try engine.evaluate("f") }
        #expect(error?.description == "iso.lua:2: \(message)")
        #expect(try engine.evaluate("g").value == "fine")
    }

    @Test func ordinaryMetatablesStillWork() throws {
        let engine = try Self.engine(
            """
            function f()
              local mt = {}
              mt.__index = function(_, k) return k .. "?" end
              mt.__eq = function() return true end
              mt.__lt = function() return true end
              mt.__le = function() return false end
              mt.__tostring = function() return "point" end
              mt.__name = "ignored"
              mt.__len = function() return 42 end
              mt.__call = function(_, x) return x * 2 end
              mt.__concat = function(a, b) return "joined" end
              mt.__add = function() return 7 end
              mt.__unm = function() return -1 end
              mt.__close = function() end
              local a, b = setmetatable({}, mt), setmetatable({}, mt)
              local shared = setmetatable({}, mt)  -- one metatable for several tables
              do local closing <close> = setmetatable({}, mt) end
              local counted = setmetatable({}, { __newindex = function(t, k, v) rawset(t, k, v * 10) end })
              counted.x = 4
              local locked = setmetatable({}, { __metatable = "locked" })
              return table.concat({ a.key, tostring(a == b), tostring(a < b), tostring(a <= b), tostring(a), #a, a(21),
                a .. "x", a + 1, -a, counted.x, getmetatable(locked), tostring(getmetatable(shared) == mt) }, " ")
            end
            """)
        #expect(try engine.evaluate("f").value == "key? true true false point 42 42 joined 7 -1 40 locked true")
    }

    // MARK: - Memory

    /// Allocates until memory runs out: 64-byte pieces, each a new string.
    static let hog = "function() local t = {} for i = 1, 1e9 do t[i] = ('x'):rep(64) .. i end end"

    /// Rules that catch the memory error every way Lua allows; each must end the
    /// evaluation with `.memory`, and the engine must work after it.
    @Test(arguments: [
        "pcall(\(hog))",
        "pcall(pcall, \(hog))",
        "pcall(function() pcall(function() pcall(\(hog)) end) end)",
        "xpcall(\(hog), function(e) return 'caught' end)",
        "xpcall(\(hog), function(e) error('replaced') end)",
        "pcall(function() local closing <close> = setmetatable({}, { __close = function() error('another') end }); (\(hog))() end)",
        "pcall(function() local closing <close> = setmetatable({}, { __close = function() return 'fine' end }); (\(hog))() end)",
        "local ok = pcall(\(hog)) if not ok then return 'caught' end",
        "for _ = 1, 3 do pcall(\(hog)) end",
    ])
    func memoryRunningOutCannotBeCaught(_ statement: String) throws {
        let engine = try Self.engine(
            "function f()\n  \(statement)\n  return 'survived'\nend\nfunction g() return ('ok'):rep(3) end",
            limits: SandboxLimits(
                memoryBytes: 1 << 20, instructions: 50_000_000, decisionInstructions: 50_000_000,
                decisionTime: .seconds(120)))
        for _ in 0..<2 {
            let error = #expect(throws: LuaError.self) { try engine.evaluate("f") }
            #expect(error?.code == .memory, "\(error?.description ?? "no error")")
            #expect(try engine.evaluate("g").value == "okokok")
        }
    }

    // MARK: - Positions

    /// Calls that fail inside the sandbox's own code, caught by `pcall` on line 2.
    @Test(arguments: [
        "table.insert, nil, 1",
        "table.insert, setmetatable({}, {}), 1, 2, 3",
        "table.remove, setmetatable({}, { __len = function() return 'x' end })",
        "table.concat, setmetatable({}, { __len = function() return {} end })",
        "table.sort, setmetatable({ 3, 1 }, {}), 5",
        "string.rep",
        "string.find, 'abc', '%'",
        "string.gsub, 'x', {}, ''",
        "string.format, '%d', 'x'",
        "setmetatable, {}, { __gc = true }",
        "setmetatable, {}, { __mode = 'k' }",
        "rawset, string, 'x', 1",
        "next, 1",
        "reject, 1",
        "reject, 'no', 1000",
        "gate",
        "rewrite, 1",
        "redirect, 1",
        "interceptor, {}",
        "load, 5",
        "function() string.x = 1 end",
        "function() return #nil end",
        "url.parse, 42",
        "version.compare, {}",
        "rollout",
        "error, 'plain'",
        "error",
    ])
    func errorsFromTheSandboxNameTheRulesLineNeverTheSandbox(_ call: String) throws {
        let engine = try Self.engine(
            "function f()\n  local ok, message = pcall(\(call))\n  return { ok = ok, message = message }\nend")
        let value = try engine.evaluate("f").value
        guard case .table(let fields) = value, fields["ok"] == false else {
            Issue.record("expected a caught error, got \(value)")
            return
        }
        let message: String
        switch fields["message"] {
        case .string(let text)?: message = text
        case nil: message = ""
        case let other?: message = "\(other)"
        }
        #expect(!message.contains("junction/sandbox") && !message.contains("sandbox:"), "\(message)")
        if message.firstMatch(of: #/^[^\s:]+:\d+: /#) != nil {
            #expect(message.hasPrefix("iso.lua:2: "), "\(message)")
        }
    }

    // MARK: - reject codes

    @Test(arguments: ["100", "403", "999"])
    func rejectTakesCodesFrom100To999(_ code: String) throws {
        let engine = try Self.engine("function f()\n  return reject('no', \(code))\nend")
        #expect(try engine.evaluate("f").value == ["verdict": "reject", "reason": "no", "code": .int(Int64(code)!)])
    }

    @Test(arguments: ["99", "1000", "-1", "0", "math.mininteger", "math.maxinteger", "1.5", "'403'", "true", "{}"])
    func rejectRefusesEveryOtherCode(_ code: String) throws {
        let engine = try Self.engine("function f()\n  local verdict = reject('no', \(code))\n  return verdict\nend")
        let error = #expect(throws: LuaError.self) { try engine.evaluate("f") }
        #expect(error?.description == "iso.lua:2: reject: code must be a whole number from 100 to 999, such as 403")
    }

    // MARK: - req.query

    /// A URL whose query has 8,000 items (`k1=v1&…`), none of them `zzz`.
    static let longQuery = "myapp://r/1?" + (1...8_000).map { "k\($0)=v\($0)" }.joined(separator: "&")

    static let readers = """
        interceptor { name = "query", all = true, run = function(req, ctx)
          local found = 0
          for _ = 1, 100000 do if req.query.zzz ~= nil then found = found + 1 end end
          return respond(found)
        end }
        interceptor { name = "param", all = true, run = function(req, ctx)
          local found = 0
          for _ = 1, 100000 do if req.params.zzz ~= nil then found = found + 1 end end
          return respond(found)
        end }
        interceptor { name = "exts", all = true, run = function(req, ctx)
          local found = 0
          for _ = 1, 100000 do if req.exts.zzz ~= nil then found = found + 1 end end
          return respond(found)
        end }
        interceptor { name = "pairs", all = true, run = function(req, ctx)
          local items = 0
          for k in pairs(req.query) do items = items + 1 end
          return respond(items)
        end }
        interceptor { name = "pairs.exts", all = true, run = function(req, ctx)
          local items = 0
          for k in pairs(req.exts) do items = items + 1 end
          return respond(items)
        end }
        interceptor { name = "pairs.loop", all = true, run = function(req, ctx)
          while true do for k in pairs(req.query) do end end
        end }
        interceptor { name = "pairs.calls", all = true, run = function(req, ctx)
          while true do local _ = pairs(req.query) end
        end }
        """

    /// `req.query.NAME` and declared parameters read from the query parse the query once
    /// per request, and the parse is charged: 100,000 reads of a name an 8,000-item query
    /// lacks cost what 100,000 reads of `req.exts.zzz` do plus one parse, not 100,000.
    @Test(arguments: ["query", "param"])
    func readingANameOfALongQueryParsesItOnce(_ reader: String) throws {
        let engine = try Self.engine(
            Self.readers,
            limits: SandboxLimits(
                instructions: 10_000_000, decisionInstructions: 10_000_000, decisionTime: .seconds(120)))
        let queryLength = Self.longQuery.utf8.count - "myapp://r/1?".utf8.count
        let reads = try Self.decide(engine, reader, url: Self.longQuery).get()
        let baseline = try Self.decide(engine, "exts", url: Self.longQuery).get()
        #expect(reads.value == ["verdict": "respond", "value": 0])
        // The same loop over a map with nothing to parse, and the parse charged once (give
        // or take one count interval: VM instructions are counted a thousand at a time).
        let parse = reads.instructions - baseline.instructions
        #expect(
            ((queryLength - 1_000)...(queryLength + 2 * 1_000)).contains(parse),
            "charged \(parse) for a \(queryLength)-byte query")
    }

    /// `pairs(req.query)` builds the whole map each time, and is charged for the query each
    /// time — what `pairs` of the same 8,000 items as `req.exts` costs, plus the query's
    /// length — so in a loop it ends in the budget, even without walking what it built.
    @Test func pairsOfALongQueryIsChargedEachTime() throws {
        let engine = try Self.engine(
            Self.readers, limits: SandboxLimits(instructionInterval: 1, decisionTime: .seconds(120)))
        let queryLength = Self.longQuery.utf8.count - "myapp://r/1?".utf8.count
        let exts = Dictionary(uniqueKeysWithValues: (1...8_000).map { ("k\($0)", RuleValue.string("v\($0)")) })
        for _ in 0..<2 {
            let query = try Self.decide(engine, "pairs", url: Self.longQuery, exts: exts).get()
            let same = try Self.decide(engine, "pairs.exts", url: Self.longQuery, exts: exts).get()
            #expect(query.value == ["verdict": "respond", "value": 8_000] && same.value == query.value)
            let parse = query.instructions - same.instructions
            #expect(
                (queryLength...(queryLength + 100)).contains(parse), "charged \(parse) for a \(queryLength)-byte query")
        }
        for loop in ["pairs.loop", "pairs.calls"] {
            let error = #expect(throws: LuaError.self) { try Self.decide(engine, loop, url: Self.longQuery).get() }
            #expect(error?.code == .instructionBudget, "\(loop): \(error?.description ?? "no error")")
        }
    }
}
