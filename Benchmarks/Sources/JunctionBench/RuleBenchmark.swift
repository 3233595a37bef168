import JunctionCore
import JunctionLua

/// `rule.*`: one small interceptor evaluated through the sandbox with its budgets on
/// (`rule.eval.lua`) and off (`rule.eval.lua_unguarded`), against the same logic as a
/// Swift closure (`rule.eval.swift`); a loop-heavy rule over the request and a tight
/// arithmetic loop, each with and without budgets (`rule.loop.*`, `rule.tightloop.*`),
/// for the budgets' cost; the pattern functions on the request's URL (`rule.patterns.*`),
/// whose work is metered outside the VM; and building the
/// request once (`rule.request.build`), which a router does once per request, not per rule.
///
/// An evaluation is a call on the prepared request that gets the verdict back out as a
/// Swift value.
struct RuleBenchmark: BenchmarkGroup {
    let name = "rule"

    static let source = """
        function decide(req, ctx)
          local route = req.route
          if route.groups[1] == "login" and ctx.user == nil then
            return "gate:myapp://login"
          end
          if req.source ~= "internal" and not route.exported then
            return "reject:not exported"
          end
          local id = req.params.id
          if id ~= nil and #id > 12 then
            return "reject:bad id"
          end
          return "continue"
        end

        function scan(req)
          local total, seen = 0, {}
          for round = 1, 20 do
            local segments = req.segments
            for i = 1, #segments do
              local segment = segments[i]
              if not seen[segment] then seen[segment] = true end
              total = total + #segment
            end
            for name, value in pairs(req.params) do total = total + #name + #value end
            if req.route.groups[1] == "login" then total = total + 1 end
          end
          return total
        end

        function checksum(req)
          local h = 0
          local path = req.path
          for i = 1, #path do h = (h * 31 + path:byte(i)) % 1000003 end
          for i = 1, 300 do h = (h * 17 + i) % 1000003 end
          return h
        end

        function patterns(req)
          local url = req.url
          local scheme, host = url:match("^(%a[%w+.-]*)://([^/?#]*)")
          local template = string.gsub(req.path, "%d+", ":id")
          local count = 0
          for name, value in string.gmatch(url, "[?&]([^=&#]+)=([^&#]*)") do count = count + #name + #value end
          local slash = string.find(url, "/", #scheme + 4, true)
          local tab = string.find(url, "tab=posts") and 1 or 0
          return #host + #template + count + slash + tab
        end
        """

    /// A realistic request: what a router passes every interceptor.
    static func request(groups: [String], exported: Bool, source: String) -> RuleValue {
        [
            "url": "myapp://user/42?tab=posts&from=push",
            "scheme": "myapp",
            "host": "user",
            "path": "/user/42",
            "segments": ["user", "42"],
            "params": ["id": "42"],
            "query": ["tab": ["posts"], "from": ["push"]],
            "source": .string(source),
            "exts": ["animated": true],
            "route": [
                "name": "user.profile", "pattern": "myapp://user/:id",
                "groups": .array(groups.map { .string($0) }), "exported": .bool(exported),
            ],
        ]
    }

    static let context: RuleValue = ["user": "ann", "version": "5.2.0", "platform": "ios"]

    /// The same decision in Swift, reading the same values.
    static func decide(_ request: RuleValue, _ context: RuleValue) -> String {
        guard case .table(let req) = request, case .table(let ctx) = context,
            case .table(let route)? = req["route"]
        else { return "continue" }
        if case .array(let groups)? = route["groups"], groups.first == "login", ctx["user"] == nil {
            return "gate:myapp://login"
        }
        if req["source"] != "internal", route["exported"] != true { return "reject:not exported" }
        if case .table(let params)? = req["params"], case .string(let id)? = params["id"], id.utf8.count > 12 {
            return "reject:bad id"
        }
        return "continue"
    }

    func run(with harness: Harness, selecting selected: (String) -> Bool) throws(BenchmarkFailure) -> [Measurement] {
        let sources = [RuleSource(name: "bench.lua", text: Self.source)]
        let guarded: RuleEngine
        let unguarded: RuleEngine
        do {
            guarded = try RuleEngine(sources: sources)
            unguarded = try RuleEngine(sources: sources, limits: SandboxLimits(instructions: .max))
        } catch {
            throw BenchmarkFailure("rule: the benchmark bundle does not load: \(error)")
        }
        let request = Self.request(groups: ["social"], exported: true, source: "push")
        try verify(guarded: guarded, unguarded: unguarded)

        var contenders: [Contender] = []
        func add(_ contender: String, _ body: @escaping (Int) -> Int) {
            if selected("\(name).\(contender)") {
                contenders.append(Contender(name: "\(name).\(contender)", n: 1, operationsPerIteration: 1, body: body))
            }
        }
        add("eval.lua") { iterations in Self.evaluate(guarded, "decide", request, iterations) }
        add("eval.lua_unguarded") { iterations in Self.evaluate(unguarded, "decide", request, iterations) }
        add("eval.swift") { iterations in
            var sink = 0
            for _ in 0..<iterations { sink &+= Self.decide(request, Self.context).utf8.count }
            return sink
        }
        add("loop.lua") { iterations in Self.evaluate(guarded, "scan", request, iterations) }
        add("loop.lua_unguarded") { iterations in Self.evaluate(unguarded, "scan", request, iterations) }
        add("tightloop.lua") { iterations in Self.evaluate(guarded, "checksum", request, iterations) }
        add("tightloop.lua_unguarded") { iterations in Self.evaluate(unguarded, "checksum", request, iterations) }
        add("patterns.lua") { iterations in Self.evaluate(guarded, "patterns", request, iterations) }
        add("patterns.lua_unguarded") { iterations in Self.evaluate(unguarded, "patterns", request, iterations) }
        add("request.build") { iterations in
            var sink = 0
            for _ in 0..<iterations {
                sink &+= (try? guarded.withArguments([request, Self.context]) { _ throws(LuaError) in 1 }) ?? 0
            }
            return sink
        }
        StandardError.print("\(name): timing \(contenders.count) contenders, interleaved")
        return harness.measure(contenders)
    }

    /// Evaluates `function` `iterations` times on one prepared request.
    private static func evaluate(_ engine: RuleEngine, _ function: String, _ request: RuleValue, _ iterations: Int)
        -> Int
    {
        (try? engine.withArguments([request, context]) { calls throws(LuaError) in
            var sink = 0
            for _ in 0..<iterations {
                switch try calls.evaluate(function).value {
                case .string(let verdict): sink &+= verdict.utf8.count
                case .int(let number): sink &+= Int(number)
                default: sink &+= 1
                }
            }
            return sink
        }) ?? -1
    }

    /// The Lua rule and the Swift closure must decide alike before anything is timed.
    private func verify(guarded: RuleEngine, unguarded: RuleEngine) throws(BenchmarkFailure) {
        let cases: [(RuleValue, RuleValue)] = [
            (Self.request(groups: ["login"], exported: true, source: "push"), [:]),
            (Self.request(groups: ["social"], exported: false, source: "push"), Self.context),
            (Self.request(groups: ["social"], exported: false, source: "internal"), Self.context),
            (Self.request(groups: [], exported: true, source: "h5"), Self.context),
        ]
        for (request, context) in cases {
            let expected = Self.decide(request, context)
            for engine in [guarded, unguarded] {
                let result = try? engine.evaluate("decide", arguments: [request, context]).value
                guard result == .string(expected) else {
                    throw BenchmarkFailure("rule: Lua decided \(String(describing: result)), Swift \(expected)")
                }
            }
        }
    }

    func report(_ measurements: [Measurement]) -> String {
        func value(_ contender: String) -> Measurement? { measurements.first { $0.name == "\(name).\(contender)" } }
        var lines = [
            "\(name): nanoseconds per evaluation, median of \(measurements.first?.samples ?? 0) samples (lower is better)"
        ]
        for measurement in measurements {
            lines.append(
                "  " + measurement.name.padding(toLength: 30, withPad: " ", startingAt: 0)
                    + String(format: "%10.1f ns", measurement.nanosecondsPerOperation))
        }
        if let lua = value("eval.lua"), let swift = value("eval.swift"), let bare = value("eval.lua_unguarded") {
            lines.append(
                String(
                    format: "  lua / swift: %.1f×; budgets cost on a small rule: %.2f×",
                    lua.pairedRatio(to: swift), lua.pairedRatio(to: bare)))
        }
        if let loop = value("loop.lua"), let bare = value("loop.lua_unguarded") {
            lines.append(
                String(format: "  budgets cost on a loop-heavy rule: %.2f× (target ≤ 1.5×)", loop.pairedRatio(to: bare))
            )
        }
        if let loop = value("tightloop.lua"), let bare = value("tightloop.lua_unguarded") {
            lines.append(
                String(
                    format: "  budgets cost on a tight arithmetic loop (worst case): %.2f×", loop.pairedRatio(to: bare))
            )
        }
        if let heap = try? Self.heapOfRules(100), let empty = try? Self.heapOfRules(0) {
            lines.append(
                String(
                    format: "  heap: %.1f KiB with 100 compiled rules (%.1f KiB empty sandbox; target ≤ 100 KiB)",
                    Double(heap) / 1024, Double(empty) / 1024))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The Lua heap of an engine whose bundle defines `count` small rules, after a full collection.
    static func heapOfRules(_ count: Int) throws -> Int {
        var text = ""
        for index in 0..<count {
            text += """
                function rule\(index)(req, ctx)
                  if req.route.groups[1] == "g\(index)" and ctx.user == nil then return "gate:myapp://login" end
                  return nil
                end

                """
        }
        let engine = try RuleEngine(sources: [RuleSource(name: "rules.lua", text: text)])
        engine.collectGarbage()
        return engine.memoryInUse
    }
}
