import Testing

import JunctionCore
@testable import JunctionLua
import CLua

@Suite struct RuleSessionTests {
    static let source = """
        interceptor { name = "probe", all = true, run = function(req, ctx)
          local field = ctx.field
          local value = req[field]
          if type(value) == "table" or type(value) == "userdata" then
            local keys = {}
            for k in pairs(value) do keys[#keys + 1] = tostring(k) end
            table.sort(keys)
            return respond(table.concat(keys, ","))
          end
          return respond(value)
        end }
        interceptor { name = "write", all = true, run = function(req, ctx) req.url = "x" end }
        interceptor { name = "fields", all = true, run = function(req, ctx)
          local names = {}
          for k in pairs(req) do names[#names + 1] = k end
          table.sort(names)
          return respond(table.concat(names, ","))
        end }
        interceptor { name = "typed", all = true, run = function(req, ctx)
          return respond(math.type(req.params.id) .. ":" .. req.params.id .. ":" .. req.params.tab .. ":" .. req.route.name
            .. ":" .. req.route.groups[1] .. ":" .. req.segments[1] .. ":" .. req.query.q .. ":" .. tostring(req))
        end }
        interceptor { name = "user", all = true, run = function(req, ctx) return respond(ctx.user.name) end }
        interceptor { name = "views", all = true, run = function(req, ctx)
          local keys = {}
          for k, v in pairs(req.params) do keys[#keys + 1] = k .. "=" .. tostring(v) end
          table.sort(keys)
          return respond(tostring(req.params) .. " " .. table.concat(keys, ",") .. " " .. type(req.params)
            .. " " .. tostring(req.route.exported) .. " " .. tostring(req.params.missing) .. " " .. tostring(req[1]))
        end }
        interceptor { name = "return-view", all = true, run = function(req, ctx) return rewrite { params = req.params } end }
        interceptor { name = "write-param", all = true, run = function(req, ctx) req.params.id = 1 end }
        interceptor { name = "write-meta", all = true, run = function(req, ctx) req.route.meta.owner = "me" end }
        interceptor { name = "rawset", all = true, run = function(req, ctx) rawset(req.params, "id", 1) end }
        interceptor { name = "metatable", all = true, run = function(req, ctx) return respond(getmetatable(req.params)) end }
        """

    static func request(_ url: String = "myapp://user/42?q=a+b&q=c") throws -> RuleRequest {
        let table = try RouteTable(routes: [
            Route(
                name: "user.profile", pattern: "myapp://user/:id", groups: ["social"],
                parameters: [
                    ParameterDeclaration("id", type: .int),
                    ParameterDeclaration("tab", type: .string, defaultValue: .string("posts")),
                ])
        ])
        let match = try #require(try table.match(url) as RouteMatch?)
        return RuleRequest(
            match: match,
            request: RouteRequest(url, params: ["coupon": "SPRING"], exts: ["animated": false], source: .push))
    }

    static func evaluate(_ interceptor: Int, field: String = "", user: String = "ann") throws -> RuleValue {
        let engine = try RuleEngine(sources: [RuleSource(name: "probe.lua", text: source)])
        let request = try request()
        let context = ContextSnapshot(["field": .string(field), "user": ["name": .string(user)]])
        return try engine.withSession(context: context) { session in
            session.setRequest(request)
            return Result { () throws(LuaError) in
                try session.evaluate(declared: engine.declarations.interceptors[interceptor].function)
            }
        }.get().value
    }

    @Test(arguments: [
        ("url", RuleValue.string("myapp://user/42?q=a+b&q=c")),
        ("scheme", "myapp"), ("host", "user"), ("path", "/42"), ("source", "push"),
        ("segments", "1"), ("params", "coupon,id,tab"), ("query", "q"), ("exts", "animated"),
        ("route", "exported,groups,meta,name,pattern,target"), ("nothing", .nil),
    ])
    func everyFieldReads(field: String, expected: RuleValue) throws {
        #expect(
            try Self.evaluate(0, field: field) == .table(["verdict": "respond", "value": expected])
                || (expected == .nil && (try Self.evaluate(0, field: field)) == .table(["verdict": "respond"])))
    }

    @Test func paramsAreTypedAndTheQueryKeepsFirstValues() throws {
        #expect(
            try Self.evaluate(3) == [
                "verdict": "respond",
                "value": "integer:42:posts:user.profile:social:42:a b:request myapp://user/42?q=a+b&q=c",
            ])
    }

    @Test func requestIsReadOnly() throws {
        #expect {
            _ = try Self.evaluate(1)
        } throws: { error in
            (error as? LuaError)?.message.contains("req is read-only") == true && (error as? LuaError)?.line == 12
        }
    }

    @Test func pairsListsEveryFieldWithAValue() throws {
        #expect(
            try Self.evaluate(2) == [
                "verdict": "respond", "value": "exts,host,params,path,query,route,scheme,segments,source,url",
            ])
    }

    @Test func mapsAreViewsThatListConvertAndLeaveLuaWhole() throws {
        #expect(
            try Self.evaluate(5) == [
                "verdict": "respond", "value": "req.params coupon=SPRING,id=42,tab=posts userdata false nil nil",
            ])
        #expect(
            try Self.evaluate(6) == ["verdict": "rewrite", "params": ["coupon": "SPRING", "id": 42, "tab": "posts"]])
        #expect(try Self.evaluate(10) == ["verdict": "respond", "value": "the request is read-only"])
    }

    @Test(arguments: [
        (7, "req is read-only"), (8, "attempt to modify a read-only table"), (9, "bad argument #1 to 'rawset'"),
    ])
    func viewsCannotBeChanged(interceptor: Int, message: String) throws {
        #expect {
            _ = try Self.evaluate(interceptor)
        } throws: { error in
            guard let error = error as? LuaError else { return false }
            return error.message.contains(message) && error.chunkName == "probe.lua"
        }
    }

    @Test func contextIsReusedPerSnapshotAndReplacedWhenItChanges() throws {
        let engine = try RuleEngine(sources: [RuleSource(name: "probe.lua", text: Self.source)])
        let request = try Self.request()
        let user = engine.declarations.interceptors[4].function
        func run(_ context: ContextSnapshot) throws -> RuleValue {
            try engine.withSession(context: context) { session in
                session.setRequest(request)
                return Result { () throws(LuaError) in try session.evaluate(declared: user) }
            }.get().value
        }
        let ann = ContextSnapshot(["user": ["name": "ann"]])
        #expect(try run(ann) == ["verdict": "respond", "value": "ann"])
        let before = engine.memoryInUse
        for _ in 0..<50 { _ = try run(ann) }
        engine.collectGarbage()
        #expect(engine.memoryInUse < before + 4096)
        #expect(try run(ContextSnapshot(["user": ["name": "bob"]])) == ["verdict": "respond", "value": "bob"])
        #expect(try run(ann) == ["verdict": "respond", "value": "ann"])
    }

    /// Sessions keep `req`, `ctx` and the call frame on the engine's stack between them, and
    /// `req` keeps the strings of a few sources: a request from another source, a new
    /// snapshot, a snapshot that fails to convert, a session inside `withArguments` and a
    /// rule that fails must each leave the next session reading its own `req` and `ctx`.
    @Test func sessionsReadTheirOwnRequestAndContextWhateverCameBefore() throws {
        let engine = try RuleEngine(
            sources: [RuleSource(name: "probe.lua", text: Self.source)],
            valueLimits: RuleValueLimits(maximumStringBytes: 64))
        let probe = engine.declarations.interceptors[0].function
        let user = engine.declarations.interceptors[4].function
        let write = engine.declarations.interceptors[1].function
        let match = try #require(
            try RouteTable(routes: [Route(name: "r", pattern: "myapp://user/:id")]).match("myapp://user/1")
                as RouteMatch?)
        let request = RuleRequest(match: match, request: RouteRequest("myapp://user/1", source: .push))
        func run(_ function: Int, _ context: ContextSnapshot, source: RequestSource = .push) throws -> RuleValue {
            let request = RuleRequest(match: match, request: RouteRequest("myapp://user/1", source: source))
            return try engine.withSession(context: context) { session in
                session.setRequest(request)
                return Result { () throws(LuaError) in try session.evaluate(declared: function) }
            }.get().value
        }
        let ann = ContextSnapshot(["field": "source", "user": ["name": "ann"]])
        let bob = ContextSnapshot(["field": "source", "user": ["name": "bob"]])
        let sources: [RequestSource] = ["push", "h5", "internal", "a", "b", "c", "push", "c", "h5"]
        for source in sources {
            #expect(try run(probe, ann, source: source) == ["verdict": "respond", "value": .string(source.rawValue)])
        }
        #expect(try run(user, bob) == ["verdict": "respond", "value": "bob"])
        #expect(throws: LuaError.self) {
            try run(user, ContextSnapshot(["user": ["name": .string(String(repeating: "x", count: 65))]]))
        }
        #expect(try run(user, bob) == ["verdict": "respond", "value": "bob"])
        #expect(throws: LuaError.self) { try run(write, bob) }
        let nested = try engine.withArguments([1]) { _ throws(LuaError) in
            engine.withSession(context: ann) { session in
                session.setRequest(request)
                return Result { () throws(LuaError) in try session.evaluate(declared: user) }
            }
        }.get().value
        #expect(nested == ["verdict": "respond", "value": "ann"])
        #expect(try run(user, bob) == ["verdict": "respond", "value": "bob"])
        #expect(try run(probe, ann, source: "h5") == ["verdict": "respond", "value": "h5"])
    }

    /// Regression: `req` kept source strings matched by Swift's canonical `String` equality,
    /// so after "café" (precomposed) a request from "café" written with a combining accent
    /// read the first one's bytes. Lua compares bytes; a rule must see its own.
    @Test func canonicallyEquivalentSourcesKeepTheirOwnBytes() throws {
        let engine = try RuleEngine(sources: [RuleSource(name: "probe.lua", text: Self.source)])
        let probe = engine.declarations.interceptors[0].function
        let match = try #require(
            try RouteTable(routes: [Route(name: "r", pattern: "myapp://user/:id")]).match("myapp://user/1")
                as RouteMatch?)
        let context = ContextSnapshot(["field": "source"])
        for source in ["caf\u{E9}", "cafe\u{301}", "caf\u{E9}"] as [RequestSource] {
            let request = RuleRequest(match: match, request: RouteRequest("myapp://user/1", source: source))
            let value = try engine.withSession(context: context) { session in
                session.setRequest(request)
                return Result { () throws(LuaError) in try session.evaluate(declared: probe) }
            }.get().value
            guard case .table(let fields) = value, case .string(let text)? = fields["value"] else {
                Issue.record("expected a respond with the source, got \(value)")
                continue
            }
            #expect(Array(text.utf8) == Array(source.rawValue.utf8))
        }
    }

    /// Regression: `pairs` over an empty map left a nil on the stack where the iterator
    /// was built, so `pairs(req.query)` of a URL without a query (or `req.exts` of a request
    /// without options) returned the table where the iterator goes, and the loop failed.
    @Test(arguments: [
        "req.query", "req.exts", "req.params", "ctx.empty", "{}", "setmetatable({}, { __index = ctx })",
    ])
    func pairsOverAnEmptyMapVisitsNothing(map: String) throws {
        let engine = try RuleEngine(sources: [
            RuleSource(
                name: "empty.lua",
                text: """
                    interceptor { name = "count", all = true, run = function(req, ctx)
                      local n = 0
                      for _ in pairs(\(map)) do n = n + 1 end
                      for _ in pairs(\(map)) do n = n + 1 end
                      return respond(n)
                    end }
                    """)
        ])
        let url = "other://nowhere"
        let request = RuleRequest(uri: try URI(url), request: RouteRequest(url))
        let value = try engine.withSession(context: ContextSnapshot(["empty": .table([:])])) { session in
            session.setRequest(request)
            return Result { () throws(LuaError) in try session.evaluate(declared: 1).value }
        }.get()
        #expect(value == ["verdict": "respond", "value": 0])
    }

    /// `req` caches each field it built in a table of its own for the rest of the request:
    /// every field read in one request, with and without a route, from sources it keeps
    /// and sources it does not, must read the next request's own, within a session and
    /// across sessions.
    @Test func fieldsCachedForOneRequestAreNotReadInTheNext() throws {
        let engine = try RuleEngine(sources: [RuleSource(name: "probe.lua", text: Self.source)])
        let probe = engine.declarations.interceptors[0].function
        let table = try RouteTable(routes: [
            Route(name: "user", pattern: "myapp://user/:id", groups: ["social"]),
            Route(name: "shop", pattern: "shop://item/:sku", isExported: false),
        ])
        func request(_ url: String, source: RequestSource) throws -> RuleRequest {
            let caller = RouteRequest(url, params: ["n": .string(url)], source: source)
            guard let match = try table.match(url) as RouteMatch? else {
                return RuleRequest(uri: try URI(url), request: caller)
            }
            return RuleRequest(match: match, request: caller)
        }
        let requests = [
            try request("myapp://user/1?q=a", source: .push),
            try request("shop://item/x9?q=b", source: "h5"),
            try request("other://nowhere/at/all", source: .push),
            try request("myapp://user/2", source: "cafe\u{301}"),
            try request("myapp://user/3?q=c", source: "caf\u{E9}"),
            try request("shop://item/y?q=d", source: "h5"),
        ]
        let fields = ["url", "scheme", "host", "path", "segments", "source", "params", "query", "route"]
        func read(_ field: String, of request: RuleRequest, in session: inout RuleSession) throws(LuaError)
            -> RuleValue
        {
            session.setRequest(request)
            return try session.evaluate(declared: probe).value
        }
        func expected(_ field: String, of request: RuleRequest) -> RuleValue {
            let value: RuleValue? =
                switch field {
                case "url": .string(request.url)
                case "scheme": .string(request.scheme)
                case "host": .string(request.host)
                case "path": .string(request.path)
                case "segments": .string(request.segments.indices.map { String($0 + 1) }.joined(separator: ","))
                case "source": .string(request.source.rawValue)
                case "params": .string(request.params.keys.sorted().joined(separator: ","))
                case "query": .string(request.query.keys.sorted().joined(separator: ","))
                default: request.route.map { _ in "exported,groups,meta,name,pattern,target" }
                }
            return value.map { ["verdict": "respond", "value": $0] } ?? ["verdict": "respond"]
        }
        // All fields in one session, request after request; then one field per session.
        for field in fields {
            let context = ContextSnapshot(["field": .string(field)])
            let values = try engine.withSession(context: context) { session in
                Result { () throws(LuaError) in
                    try requests.map { request throws(LuaError) in try read(field, of: request, in: &session) }
                }
            }.get()
            for (request, value) in zip(requests, values) {
                #expect(value == expected(field, of: request), "\(field) of \(request.url) from \(request.source)")
            }
            for request in requests.reversed() {
                let value = try engine.withSession(context: context) { session in
                    Result { () throws(LuaError) in try read(field, of: request, in: &session) }
                }.get()
                #expect(value == expected(field, of: request), "\(field) of \(request.url), a session each")
            }
        }
    }

    /// What `req` caches is out of a rule's reach: its metatable is a string, `rawget`
    /// refuses it, and the whole of it converts from the request, not from the cache.
    @Test func reqsCacheIsOutOfARulesReach() throws {
        let engine = try RuleEngine(sources: [
            RuleSource(
                name: "reach.lua",
                text: """
                    interceptor { name = "meta", all = true, run = function(req, ctx)
                      local path = req.path
                      return respond(tostring(getmetatable(req)) .. " " .. tostring(pcall(rawget, req, "path")))
                    end }
                    interceptor { name = "whole", all = true, run = function(req, ctx)
                      local path = req.path
                      return respond(req)
                    end }
                    """)
        ])
        let request = try Self.request()
        let results = try engine.withSession(context: .empty) { session in
            Result { () throws(LuaError) in
                session.setRequest(request)
                return try engine.declarations.interceptors.map { interceptor throws(LuaError) in
                    try session.evaluate(declared: interceptor.function).value
                }
            }
        }.get()
        #expect(results[0] == ["verdict": "respond", "value": "the request is read-only false"])
        guard case .table(let verdict) = results[1], case .table(let whole)? = verdict["value"] else {
            Issue.record("expected the whole request, got \(results[1])")
            return
        }
        #expect(whole["path"] == "/42")
        #expect(whole["source"] == "push")
        #expect(whole["params"] == ["coupon": "SPRING", "id": 42, "tab": "posts"])
    }

    /// Renumbering `req` runs outside any protected call, so it must not allocate (an
    /// allocation the memory budget refuses there would abort the app): with every field
    /// cached, kept views and a kept source included, it only reads and overwrites entries.
    @Test func renumberingAllocatesNothing() throws {
        let engine = try RuleEngine(sources: [
            RuleSource(
                name: "all.lua",
                text: """
                    interceptor { name = "all", all = true, run = function(req, ctx)
                      local read = { req.url, req.scheme, req.host, req.path, req.segments, req.source, req.params,
                        req.query, req.exts, req.route, req.params.id, req.query.q }
                    end }
                    """)
        ])
        let request = try Self.request()
        for source: Int32 in [0, RequestUserdata.firstSourceSlot] {
            _ = try engine.withSession(context: .empty) { session in
                session.setRequest(request)
                return Result { () throws(LuaError) in try session.evaluate(declared: 1) }
            }.get()
            let state = engine.state
            let before = state.memoryInUse
            RequestUserdata.renumber(
                state.frame.handle, at: 1, generation: state.frame.generation + 1, source: source)
            #expect(state.memoryInUse == before, "source slot \(source)")
        }
    }

    /// The views of `req`'s maps read whichever request is current; once the session is
    /// over there is none, and a view read then (which a sealed bundle cannot keep, but
    /// defensively) raises rather than read a request that has gone.
    @Test func aViewReadOutsideItsSessionRaises() throws {
        let engine = try RuleEngine(sources: [
            RuleSource(
                name: "id.lua",
                text: """
                    interceptor { name = "id", all = true, run = function(req, ctx) return respond(req.params.id) end }
                    """)
        ])
        let request = try Self.request()
        let value = try engine.withSession(context: .empty) { session in
            session.setRequest(request)
            return Result { () throws(LuaError) in try session.evaluate(declared: 1).value }
        }.get()
        #expect(value == ["verdict": "respond", "value": 42])
        // The session's slots stay at the bottom of the stack: `req` is slot 1.
        let handle = engine.state.frame.handle
        let top = lua_gettop(handle)
        defer { lua_settop(handle, top) }
        jl_pushcfunction(handle) { state in
            _ = lua_getfield(state, 1, "params")
            _ = lua_getfield(state, -1, "id")
            return 1
        }
        lua_pushvalue(handle, 1)
        #expect(jl_pcall(handle, 1, 1, 0) != LUA_OK)
        #expect(String(cString: lua_tolstring(handle, -1, nil)).contains("req may be read only during the call"))
    }

    /// A caller hands the session the request before every rule and keeps no count of
    /// its own: the same request again changes nothing (what rules read of it, such as the
    /// parsed query, is kept), while another request — even an equal one — is read anew.
    @Test func settingTheSameRequestAgainIsANoOp() throws {
        let engine = try RuleEngine(
            sources: [
                RuleSource(
                    name: "q.lua",
                    text: """
                        interceptor { name = "q", all = true, run = function(req, ctx) return respond(req.query.q) end }
                        """)
            ],
            limits: SandboxLimits(decisionTime: .seconds(120)))
        let readQ = engine.declarations.interceptors[0].function
        let url = "myapp://user/42?" + (1...2_000).map { "k\($0)=v" }.joined(separator: "&") + "&q=x"
        let queryLength = url.utf8.count - "myapp://user/42?".utf8.count
        let request = try Self.request(url)
        let equal = try Self.request(url)
        let outcome = try engine.withSession(context: .empty) { session in
            Result { () throws(LuaError) -> (generations: [Int], instructions: [Int], values: [RuleValue]) in
                var outcome: (generations: [Int], instructions: [Int], values: [RuleValue]) = ([], [], [])
                for next in [request, request, equal] {
                    session.setRequest(next)
                    outcome.generations.append(engine.state.frame.generation)
                    let result = try session.evaluate(declared: readQ)
                    outcome.instructions.append(result.instructions)
                    outcome.values.append(result.value)
                }
                return outcome
            }
        }.get()
        #expect(outcome.values.allSatisfy { $0 == .table(["verdict": "respond", "value": "x"]) })
        #expect(outcome.generations[0] == outcome.generations[1])
        #expect(outcome.generations[2] != outcome.generations[1])
        // Parsing the query is charged a byte an instruction (counted a thousand at a
        // time): to the first read and to the equal request's, not to the second read.
        #expect(outcome.instructions[0] - outcome.instructions[1] >= queryLength - 1_000)
        #expect(outcome.instructions[2] - outcome.instructions[1] >= queryLength - 1_000)
    }
}
