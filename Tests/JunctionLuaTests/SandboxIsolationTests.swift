import JunctionCore
import JunctionLua
import Logging
import Testing

/// Nothing crosses evaluations: what one decision did — with whose token, which patterns,
/// how much memory — cannot be read back by a later one, whether by value, by address, by
/// what the collector kept, or by where a budget runs out.
@Suite struct SandboxIsolationTests {
    // MARK: - Helpers

    /// An engine of one file, `iso.lua`.
    static func engine(_ text: String, limits: SandboxLimits = SandboxLimits(), logger: Logger? = nil) throws -> RuleEngine {
        try RuleEngine(
            sources: [RuleSource(name: "iso.lua", text: text)], limits: limits,
            logger: logger ?? Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    /// The route every request here matches; `zzz` is a declared parameter no path has.
    static let routes: RouteTable = try! RouteTable(routes: [
        Route(name: "r", pattern: "myapp://r/:n", parameters: [ParameterDeclaration("zzz", type: .string)]),
    ])

    static func request(_ url: String = "myapp://r/1") throws -> RuleRequest {
        let match = try #require(try routes.match(url) as RouteMatch?)
        return RuleRequest(match: match, request: RouteRequest(url))
    }

    /// One decision: the interceptor `name` run on `url` with `ctx`, as a decider runs it.
    static func decide(
        _ engine: RuleEngine, _ name: String, context: ContextSnapshot = .empty, url: String = "myapp://r/1"
    ) throws -> Result<RuleResult, LuaError> {
        let function = try #require(engine.declarations.interceptors.first { $0.name == name }).function
        let request = try request(url)
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
          return respond("fits")
        end }
        """

    /// The probe's outcome on a new engine after one decision of a user with `token`.
    static func probe(after token: String, guess: String, work: Int, limits: SandboxLimits) throws -> String {
        let engine = try engine(leak, limits: limits)
        _ = try decide(engine, "remember", context: ContextSnapshot(["user": ["token": .string(token)]]))
        return outcome(try decide(engine, "probe", context: ContextSnapshot(["guess": .string(guess), "work": .int(Int64(work))])))
    }

    /// The most work the probe can pay for after the decoy's decision.
    static func threshold(guess: String, limits: SandboxLimits, upTo high: Int) throws -> Int {
        var (low, high) = (0, high)  // fits at low, not at high
        #expect(try probe(after: decoy, guess: guess, work: low, limits: limits) == "\"fits\"")
        #expect(try probe(after: decoy, guess: guess, work: high, limits: limits) != "\"fits\"")
        while high - low > 1 {
            let middle = (low + high) / 2
            if try probe(after: decoy, guess: guess, work: middle, limits: limits) == "\"fits\"" { low = middle } else { high = middle }
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
        ("budget", SandboxLimits(instructions: 200_000), 200_000),
        ("memory", SandboxLimits(memoryBytes: 1 << 20, instructions: 50_000_000), 1 << 20),
    ])
    func aTokenMadeIntoPatternsCannotBeReadBackByALaterDecision(_ bound: String, limits: SandboxLimits, high: Int) throws {
        for guess in [String(Self.token.prefix(6)), Self.token] {
            let threshold = try Self.threshold(guess: guess, limits: limits, upTo: high)
            for work in [threshold, threshold + 1] {
                let afterDecoy = try Self.probe(after: Self.decoy, guess: guess, work: work, limits: limits)
                let afterVictim = try Self.probe(after: Self.token, guess: guess, work: work, limits: limits)
                #expect(afterVictim == afterDecoy, "\(bound): guess \(guess), work \(work)")
            }
        }
    }
}
