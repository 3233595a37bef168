import JunctionCore
import JunctionLua
import JunctionTestSupport
import Testing

/// What a rule can observe — its verdict, the instructions it is charged, whether it runs
/// out of budget — is a function of the bundle and its own decision's inputs, never of what
/// earlier decisions did to the engine: a rule evaluated on a new engine and on one that
/// has decided for others before ends the same way, at the same count.
@Suite struct EvaluationHistoryTests {
    static let limits = SandboxLimits(decisionTime: .seconds(120))

    static func engine(_ text: String, limits: SandboxLimits = limits) throws -> RuleEngine {
        try SandboxIsolationTests.engine(text, limits: limits)
    }

    /// What a decision of interceptor `name` with `ctx` ended with, and what it was charged.
    static func observe(
        _ engine: RuleEngine, _ name: String, _ context: [String: RuleValue], url: String = "myapp://r/1",
        exts: [String: RuleValue] = [:], source: RequestSource = .internal
    ) throws -> String {
        let result = try SandboxIsolationTests.decide(
            engine, name, context: ContextSnapshot(context), url: url, exts: exts, source: source)
        switch result {
        case .success(let value): return "\(value.value) after \(value.instructions)"
        case .failure(let error): return "\(error.code) at \(error.chunkName):\(error.line ?? 0)"
        }
    }

    // MARK: - The red team's PIN reader

    /// A victim's decision recurses as deep as her PIN; a probe on another user's product
    /// page recurses to a depth `k`, with a budget that pays for that only when Lua keeps
    /// the call frames an earlier decision grew.
    static let pinReader = """
        local function depth(n) if n <= 0 then return 0 end return 1 + depth(n - 1) end
        interceptor { name = "alice", all = true, run = function(req, ctx) depth(ctx.pin) end }
        interceptor { name = "probe", all = true, on_error = "continue", run = function(req, ctx)
          depth(ctx.k)
          return reject("someone's PIN is at least " .. ctx.k)
        end }
        """

    /// Regression: the cross-user leak through the Lua stack's high-water mark. Lua kept a
    /// grown stack and its call frames until a full collection, and new frames were charged,
    /// so recursing to depth 4,000 cost ~600,000 instructions the first time and ~24,000
    /// once any earlier evaluation went that deep: a probe whose budget paid only for the
    /// warm case read another user's PIN exactly, by whether it ran out.
    @Test(arguments: [(pin: 4_000, k: 3_000), (pin: 2_000, k: 3_000), (pin: 3_500, k: 1_000), (pin: 1, k: 3_900)])
    func aProbeCannotReadHowDeepAnEarlierDecisionWent(pin: Int, k: Int) throws {
        let limits = SandboxLimits(instructions: 150_000, decisionInstructions: 300_000, decisionTime: .seconds(120))
        let probe: [String: RuleValue] = ["k": .int(Int64(k))]
        let cold = try Self.observe(try Self.engine(Self.pinReader, limits: limits), "probe", probe)
        let engine = try Self.engine(Self.pinReader, limits: limits)
        _ = try Self.observe(engine, "alice", ["pin": .int(Int64(pin))])
        for _ in 0..<3 {
            #expect(try Self.observe(engine, "probe", probe) == cold)
        }
        // Deep enough to show the frames' cost: the cold probe runs out at depth 3,000.
        if k >= 3_000 { #expect(cold.hasPrefix("instructionBudget")) }
    }

    /// The same holds for evaluations outside a decision (`junction test`, `RuleEngine.evaluate`).
    @Test func anEvaluationCostsTheSameAfterADeeperOne() throws {
        let text = """
            local function depth(n) if n <= 0 then return 0 end return 1 + depth(n - 1) end
            function go(n) return depth(n) end
            """
        let cold = try Self.engine(text).evaluate("go", arguments: [.int(2_000)])
        let engine = try Self.engine(text)
        _ = try engine.evaluate("go", arguments: [.int(5_000)])
        let warm = try engine.evaluate("go", arguments: [.int(2_000)])
        #expect(warm.value == cold.value)
        #expect(warm.instructions == cold.instructions)
    }

    // MARK: - Memory

    /// A victim's decision holds `count` distinct strings at once, which grows Lua's string
    /// table; a probe then asks whether `bytes` more fit under the memory cap.
    static let memoryReader = """
        interceptor { name = "strings", all = true, run = function(req, ctx)
          local kept = {}
          for i = 1, ctx.count do kept[i] = "s" .. i end
        end }
        interceptor { name = "fill", all = true, run = function(req, ctx)
          return respond(#("x"):rep(ctx.bytes))
        end }
        local function depth(n) if n <= 0 then return 0 end return 1 + depth(n - 1) end
        depth(20000)
        """

    static let memoryLimits = SandboxLimits(
        instructions: 100_000_000, decisionInstructions: 100_000_000, decisionTime: .seconds(120))

    static func fits(_ bytes: Int, on engine: RuleEngine) throws -> Bool {
        try observe(engine, "fill", ["bytes": .int(Int64(bytes))]).hasPrefix("{")
    }

    /// Regression: whether a rule runs out of memory depended on history — on the string
    /// table earlier decisions grew (a pointer per string they held at once, kept until
    /// later collections shrink it), and on the call frames the bundle's loading grew,
    /// given back whenever a collection in incremental mode happened to run. The string
    /// table is not counted against the cap, and loading's frames are given back before
    /// the first evaluation: the most a probe can take is the same on a new engine and
    /// after a decision that held 100,000 strings.
    @Test func theMemoryARuleCanTakeDoesNotDependOnHistory() throws {
        var (low, high) = (1 << 20, 8 << 20)  // fits at low, not at high
        while high - low > 1 {
            let middle = (low + high) / 2
            let fresh = try Self.engine(Self.memoryReader, limits: Self.memoryLimits)
            if try Self.fits(middle, on: fresh) { low = middle } else { high = middle }
        }
        let seasoned = try Self.engine(Self.memoryReader, limits: Self.memoryLimits)
        _ = try Self.observe(seasoned, "strings", ["count": .int(100_000)])
        #expect(try Self.fits(low, on: seasoned), "\(low) bytes fit on a new engine")
        #expect(try !Self.fits(high, on: seasoned), "\(high) bytes do not fit on a new engine")
    }

    /// What the main thread grew while the bundle loaded (here, 20,000 call frames and the
    /// stack they needed, ~2 MB) is given back before the first evaluation, not whenever a
    /// later collection happens to.
    // MARK: - What reading `req` costs

    /// A rule reading every field of `req`, and the maps' keys (which are charged).
    static let requestReader = """
        interceptor { name = "read", all = true, run = function(req, ctx)
          local fields = { req.url, req.scheme, req.host, req.path, req.segments, req.source, req.params,
            req.query, req.exts, req.route, req.params.n, req.query.q, req.exts.x, req.route.name }
          local n = 0
          for _ in pairs(req) do n = n + 1 end
          return respond(#req.url + n)
        end }
        """

    /// One decision of `requestReader` on `url` from `source`.
    static func readRequest(_ engine: RuleEngine, _ url: String, source: RequestSource) throws -> String {
        try observe(engine, "read", [:], url: url, exts: ["x": 1], source: source)
    }

    /// `req` keeps what it built for the rest of a request, the maps' views and the names
    /// of a few sources across requests, in a table that collections change: what reading
    /// it is charged must not tell what earlier decisions read, nor when a collection ran.
    /// Regression: a kept source or view was charged on a new engine and free after, and a
    /// field stored where a collection had let a cleared key go grew the table, charged.
    @Test(arguments: ["push", "h5", "a-source-of-thirty-two-bytes-long"] as [RequestSource])
    func readingReqCostsTheSameAfterAnyHistory(source: RequestSource) throws {
        let url = "myapp://r/7?q=1&k=v"
        let cold = try Self.readRequest(try Self.engine(Self.requestReader), url, source: source)
        #expect(cold.contains("respond"), "the reader must decide: \(cold)")
        let engine = try Self.engine(Self.requestReader)
        let history: [(String, RequestSource)] = [
            ("myapp://r/1", "push"), ("myapp://r/22?q=2", "internal"), ("myapp://r/333", source),
            ("myapp://r/4?x=1&y=2&z=3", "h5"), ("myapp://r/55", "a"), ("myapp://r/6", "b"), ("myapp://r/7", "c"),
        ]
        for round in 0..<12 {
            for (other, from) in history.shuffled() {
                _ = try Self.readRequest(engine, other, source: from)
                if round % 2 == 0 { engine.collectGarbage() }
            }
            #expect(try Self.readRequest(engine, url, source: source) == cold, "round \(round)")
        }
    }

    @Test func whatLoadingGrewIsGivenBackBeforeTheFirstEvaluation() throws {
        let deep = try Self.engine(Self.memoryReader, limits: Self.memoryLimits)
        let flat = try Self.engine(
            Self.memoryReader.replacingOccurrences(of: "depth(20000)", with: "depth(1)"), limits: Self.memoryLimits)
        for engine in [deep, flat] { engine.collectGarbage() }
        #expect(abs(deep.memoryInUse - flat.memoryInUse) < 4_096, "\(deep.memoryInUse) against \(flat.memoryInUse)")
    }

    // MARK: - The differential property

    /// One random rule: a sequence of steps — deep recursion, string building, table growth,
    /// `pairs`, patterns, caught errors, closures — each sized by `ctx`, then a verdict
    /// computed from what they made.
    static func program(_ name: String, using random: inout SplitMix64) -> String {
        let steps = [
            "acc = acc + depth(ctx.a % 700)",
            "acc = acc + depth(ctx.b % 3000)",
            """
            local parts = {}
            for i = 1, ctx.b % 60 do parts[#parts + 1] = ctx.s .. i end
            acc = acc + #table.concat(parts, ",")
            """,
            """
            local map = {}
            for i = 1, ctx.a % 400 do map["k" .. i] = i; map[i * 7] = ctx.s end
            for k, v in pairs(map) do acc = acc + (type(k) == "number" and k % 5 or #k) end
            """,
            """
            local list = {}
            for i = 1, ctx.b % 500 do list[i] = i * i end
            acc = acc + #list
            """,
            """
            for word in string.gmatch(ctx.s:rep(ctx.a % 20 + 1), "%a+%d*") do acc = acc + #word end
            local replaced, count = string.gsub(ctx.s, "(%a)", "%1%1")
            acc = acc + count + (string.find(replaced, ctx.s:sub(1, 2), 1, true) or 0)
            """,
            """
            local ok = pcall(function() depth(ctx.a % 900); error("deep error") end)
            acc = acc + (ok and 1 or 2)
            """,
            """
            local functions = {}
            for i = 1, ctx.b % 40 do functions[i] = function() return i + acc end end
            for i = 1, #functions do acc = acc + functions[i]() % 3 end
            """,
            "acc = acc + #(\"x\"):rep(ctx.a % 5000) + #string.format(\"%d-%s\", acc, ctx.s)",
            """
            local set = {}
            for i = 1, ctx.a % 150 do set[ctx.s .. (i % 17)] = true end
            local n = 0
            for _ in pairs(set) do n = n + 1 end
            acc = acc + n
            """,
        ]
        var body = ""
        for _ in 0..<(1 + random.next(below: 5)) { body += random.pick(steps) + "\n" }
        return """
            interceptor { name = "\(name)", all = true, run = function(req, ctx)
              local acc = 0
              \(body)
              if acc % 3 == 0 then return reject("r" .. acc) end
              if acc % 3 == 1 then return respond(acc) end
            end }

            """
    }

    static func bundle(programs: Int, using random: inout SplitMix64) -> String {
        var text = "local function depth(n) if n <= 0 then return 0 end return 1 + depth(n - 1) end\n"
        for index in 0..<programs { text += program("p\(index)", using: &random) }
        return text
    }

    static func input(using random: inout SplitMix64) -> [String: RuleValue] {
        let words = ["alice", "bob7", "x", "Token-42ab", "zz9", "mallory"]
        return [
            "a": .int(Int64(random.next(below: 100_000))), "b": .int(Int64(random.next(below: 100_000))),
            "s": .string(random.pick(words)),
        ]
    }

    /// Random rule programs decided on a new engine and on an engine with a random history
    /// of other decisions give identical verdicts and identical instruction counts.
    @Test(arguments: 0..<16)
    func randomRulesEndTheSameAfterAnyHistory(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x5EED_0000 + seed)
        let programs = 8
        let text = Self.bundle(programs: programs, using: &random)
        let seasoned = try Self.engine(text)
        for _ in 0..<12 {
            for _ in 0..<random.next(below: 6) {
                _ = try Self.observe(seasoned, "p\(random.next(below: programs))", Self.input(using: &random))
            }
            let target = "p\(random.next(below: programs))"
            let input = Self.input(using: &random)
            let fresh = try Self.observe(try Self.engine(text), target, input)
            let after = try Self.observe(seasoned, target, input)
            #expect(after == fresh, "\(target) with \(input)")
        }
    }
}
