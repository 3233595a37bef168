import Foundation
import Junction
import JunctionAuthoring
import Testing

/// The pipeline, as a table: a bundle with one rule per behaviour, URLs in, decisions out.
@Suite struct DeciderTests {
    static let routes = """
        options:
          dispatchedSchemes: [https]
        routes:
          - { name: home, pattern: "myapp://home", exported: true }
          - { name: login, pattern: "myapp://login", exported: true }
          - name: moments
            pattern: myapp://moments(/:id)
            exported: true
            groups: [login]
            params: { id: int }
          - { name: settings, pattern: "myapp://settings", groups: [login] }
          - { name: checkout, pattern: "myapp://checkout", exported: true }
          - { name: checkout.v2, pattern: "myapp://checkout/v2", exported: true }
          - name: item.special
            pattern: myapp://item/:id
            exported: true
            params: { id: int }
          - { name: item, pattern: "myapp://item/:slug", exported: true }
          - { name: share, pattern: "myapp://action/share", exported: true }
          - { name: upgrade, pattern: "myapp://upgrade", exported: true }
          - { name: spin, pattern: "myapp://spin", exported: true }
          - { name: broken, pattern: "myapp://broken", exported: true }
          - { name: gated.self, pattern: "myapp://selfgate", exported: true }
          - { name: help, pattern: "https://help.example.com/**", exported: true }
        """

    static let rules = """
        redirect { from = "myapp://old/moments/:id", to = "myapp://moments/{id}" }
        redirect { from = "myapp://legacy", to = "myapp://home", keep_query = true }
        redirect { from = "myapp://loop/a", to = "myapp://loop/b" }
        redirect { from = "myapp://loop/b", to = "myapp://loop/a" }
        redirect { from = "myapp://cond/:id", to = "myapp://moments/{id}", when = function(req, ctx) return ctx.flag end }
        redirect { from = "myapp://cond/:id", to = "myapp://item/{id}" }
        redirect { from = "myapp://h5/:page", to = "https://m.example.com/{page}" }

        interceptor { name = "ban", all = true, priority = 10, run = function(req, ctx)
          if ctx.banned then return reject("banned", 451) end
        end }
        interceptor { name = "crash", pattern = "myapp://settings", on_error = "continue", run = function(req, ctx)
          if ctx.crash then error("boom") end
        end }
        group("login", function(req, ctx) if not ctx.user then return gate("myapp://login") end end)
        interceptor { name = "decline.big", route = "item.special", run = function(req, ctx)
          if req.params.id > 100 then return next() end
        end }
        interceptor { name = "rollout", route = "checkout", run = function(req, ctx)
          if ctx.user and ctx.user.beta then return redirect("myapp://checkout/v2", { from = "rollout" }) end
        end }
        interceptor { name = "share", route = "share", run = function(req, ctx)
          return respond({ shared = req.params.title or req.query.title })
        end }
        interceptor { name = "tag", route = "moments", run = function(req, ctx) return rewrite { params = { tagged = true } } end }
        interceptor { name = "spin", route = "spin", run = function() while true do end end }
        interceptor { name = "broken", route = "broken", run = function() return 42 end }
        interceptor { name = "selfgate", route = "gated.self", run = function(req) return gate(req.url) end }
        fallback(function(req, ctx)
          if req.scheme == "myapp" then return redirect("myapp://upgrade?from=" .. url.encode(req.url)) end
        end)
        """

    static let bundle: RuleBundle = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "junction-decider-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try! "name: decider-test\nversion: 7\n".write(
            to: root.appendingPathComponent("manifest.yaml"), atomically: true, encoding: .utf8)
        try! routes.write(to: root.appendingPathComponent("routes.yaml"), atomically: true, encoding: .utf8)
        try! rules.write(to: root.appendingPathComponent("rules.lua"), atomically: true, encoding: .utf8)
        return try! RuleBundle.load(directory: root.path, limits: SandboxLimits(instructions: 100_000))
    }()

    static let decider = try! Decider(bundle: bundle)

    static let user = ContextSnapshot(["user": ["id": 7]])
    static let guest = ContextSnapshot()

    /// One line per decision: what happened and where it ended.
    static func summary(_ decision: Decision) -> String {
        var text: String
        switch decision.outcome {
        case .open: text = "open \(decision.match!.route.name)"
        case .respond(let value): text = "respond \(value)"
        case .reject(let rejection):
            text = "reject \(rejection.cause.rawValue) \(rejection.code.map(String.init) ?? "-")"
        case .gate(let url, _): text = "gate \(url)"
        case .handOver(let scheme): text = "hand over \(scheme) \(decision.uri!.string)"
        case .unmatched: text = "unmatched"
        }
        if decision.wasRedirected { text += " via \(decision.redirects.count)" }
        return text
    }

    @Test(
        arguments: [
            ("myapp://home", "internal", user, "open home"),
            ("myapp://old/moments/5", "internal", user, "open moments via 1"),
            ("myapp://legacy?x=1", "internal", user, "open home via 1"),
            ("myapp://loop/a", "internal", user, "reject redirect_loop 508 via 1"),
            ("myapp://cond/5", "internal", ContextSnapshot(["flag": true, "user": [:]]), "open moments via 1"),
            ("myapp://cond/5", "internal", user, "open item.special via 1"),
            ("myapp://h5/promo", "internal", user, "hand over https https://m.example.com/promo via 1"),
            ("https://help.example.com/a/b", "push", user, "open help"),
            ("https://elsewhere.example.com/", "push", user, "hand over https https://elsewhere.example.com/"),
            ("myapp://moments/3", "push", guest, "gate myapp://login"),
            ("myapp://moments/3", "push", user, "open moments"),
            ("myapp://settings", "push", user, "reject not_exported 403"),
            ("myapp://settings", "internal", user, "open settings"),
            ("myapp://settings", "internal", ContextSnapshot(["user": [:], "crash": true]), "open settings"),
            ("myapp://home", "internal", ContextSnapshot(["banned": true]), "reject rule 451"),
            ("myapp://item/7", "internal", user, "open item.special"),
            ("myapp://item/700", "internal", user, "open item"),
            ("myapp://checkout", "internal", user, "open checkout"),
            ("myapp://checkout", "internal", ContextSnapshot(["user": ["beta": true]]), "open checkout.v2 via 1"),
            ("myapp://action/share?title=hi", "h5", user, #"respond {"shared":"hi"}"#),
            ("myapp://nowhere", "push", user, "open upgrade via 1"),
            ("other://nowhere", "push", user, "unmatched"),
            ("myapp://spin", "internal", user, "reject rule_failed 500"),
            ("myapp://broken", "internal", user, "reject rule_failed 500"),
            ("myapp://selfgate", "internal", user, "reject gate_loop 508"),
            ("http://[::1", "internal", user, "reject invalid_url 400"),
        ] as [(String, String, ContextSnapshot, String)])
    func decides(url: String, source: String, context: ContextSnapshot, expected: String) {
        let decision = Self.decider.decide(RouteRequest(url, source: RequestSource(rawValue: source)), context: context)
        #expect(
            Self.summary(decision) == expected, "\(decision.trace.steps.map(\.description).joined(separator: "\n"))")
    }

    @Test func parametersAreTypedCarriedAndRewritten() {
        let moments = Self.decider.decide(
            RouteRequest("myapp://moments/3", params: ["from": "feed"]), context: Self.user)
        #expect(moments.params == ["id": 3, "from": "feed", "tagged": true])
        let checkout = Self.decider.decide(
            RouteRequest("myapp://checkout"), context: ContextSnapshot(["user": ["beta": true]]))
        #expect(checkout.params["from"] == "rollout")
        #expect(checkout.redirects == ["myapp://checkout"])
        let legacy = Self.decider.decide(RouteRequest("myapp://legacy?x=1&y=a%20b"), context: Self.user)
        #expect(legacy.uri?.string == "myapp://home?x=1&y=a%20b")
        let fallback = Self.decider.decide(RouteRequest("myapp://nowhere/7?q=1", source: .push), context: Self.user)
        #expect(fallback.uri?.string == "myapp://upgrade?from=myapp%3A%2F%2Fnowhere%2F7%3Fq%3D1")
    }

    @Test func templatesEncodeWhatTheyInsert() {
        let decision = Self.decider.decide(RouteRequest("myapp://h5/a%2Fb%3Fc"), context: Self.user)
        #expect(decision.uri?.string == "https://m.example.com/a%2Fb%3Fc")
    }

    @Test func theTraceNamesEveryStepInOrder() {
        let decision = Self.decider.decide(RouteRequest("myapp://old/moments/5", source: .push), context: Self.user)
        #expect(decision.trace.bundle == "decider-test@7")
        #expect(decision.trace.steps.map(\.stage) == [.redirect, .match, .access, .global, .group, .route])
        #expect(
            decision.trace.steps.map(\.name) == [
                "myapp://old/moments/:id", "moments", "moments", "ban", "login", "tag",
            ])
        #expect(decision.trace.steps[0].location == "rules.lua:1")
        #expect(decision.trace.steps[3].location == "rules.lua:9")
        #expect(decision.trace.steps[5].verdict == .rewrite(params: ["tagged": true]))
    }

    @Test func aFailingRuleIsInTheTraceWithItsLine() {
        let spin = Self.decider.decide(RouteRequest("myapp://spin"), context: Self.user)
        let step = spin.trace.steps.last!
        #expect(step.name == "spin" && step.error?.contains("instruction budget") == true)
        #expect(step.instructions > 0)
        let crash = Self.decider.decide(
            RouteRequest("myapp://settings"), context: ContextSnapshot(["user": [:], "crash": true]))
        #expect(crash.trace.steps.last?.error?.contains("rules.lua:13: boom") == true)
        #expect(crash.trace.steps.last?.detail == "on_error = continue: carrying on")
    }

    @Test func redirectChainsAreBounded() throws {
        var lines = ""
        for index in 0..<12 { lines += "redirect { from = \"myapp://r/\(index)\", to = \"myapp://r/\(index + 1)\" }\n" }
        let decider = try Self.decider(rules: lines)
        guard case .reject(let rejection) = decider.decide(RouteRequest("myapp://r/0")).outcome else {
            Issue.record("expected a rejection")
            return
        }
        #expect(rejection.cause == .tooManyRedirects)
        #expect(rejection.reason.hasPrefix("more than 8 redirects: myapp://r/0 → myapp://r/1"))
        guard case .reject(let loop) = Self.decider.decide(RouteRequest("myapp://loop/a")).outcome else { return }
        #expect(loop.reason == "redirect loop: myapp://loop/a → myapp://loop/b → myapp://loop/a")
    }

    @Test func gatesAreBoundedByTheRequestsWaitingBehindThem() {
        let nested = Self.decider.decide(
            RouteRequest("myapp://moments/1", gatedRequests: ["myapp://a", "myapp://b", "myapp://c"]),
            context: Self.guest)
        guard case .reject(let rejection) = nested.outcome else {
            Issue.record("expected a rejection")
            return
        }
        #expect(rejection.cause == .gateLoop)
        let back = Self.decider.decide(
            RouteRequest("myapp://moments/1", gatedRequests: ["myapp://login"]), context: Self.guest)
        guard case .reject(let loop) = back.outcome else { return }
        #expect(loop.reason.hasPrefix("gate loop"))
    }

    @Test func swiftInterceptorsTakeTheirPlaceAmongTheRules() throws {
        let order = SwiftInterceptor("swift.first", scope: .all, priority: 20) { _, _ in .continue }
        let group = SwiftInterceptor("swift.group", scope: .group("login")) { request, _ in
            request.params["id"] == 13 ? .reject(reason: "unlucky", code: nil) : .continue
        }
        let route = SwiftInterceptor("swift.route", scope: .pattern("myapp://moments(/:id)"), priority: 5) { _, _ in
            .continue
        }
        let failing = SwiftInterceptor("swift.fails", scope: .route("home"), onError: .reject) { _, _ in
            throw CocoaError(.featureUnsupported)
        }
        let decider = try Decider(bundle: Self.bundle, interceptors: [order, group, route, failing])
        let decision = decider.decide(RouteRequest("myapp://moments/3"), context: Self.user)
        #expect(
            decision.trace.steps.filter { [.global, .group, .route].contains($0.stage) }.map(\.name)
                == ["swift.first", "ban", "login", "swift.group", "swift.route", "tag"])
        #expect(decision.trace.steps.first { $0.name == "swift.first" }?.location == "swift")
        guard
            case .reject(let rejection) = decider.decide(RouteRequest("myapp://moments/13"), context: Self.user).outcome
        else {
            Issue.record("expected a rejection")
            return
        }
        #expect(rejection.rule == "swift.group" && rejection.reason == "unlucky")
        guard case .reject(let failure) = decider.decide(RouteRequest("myapp://home"), context: Self.user).outcome
        else { return }
        #expect(failure.cause == .ruleFailed && failure.rule == "swift.fails")
    }

    @Test func aRedirectVerdictsParamsAreCarriedButTheCallersRequestIsKept() throws {
        let table = try RouteTable(routes: [
            Route(name: "old", pattern: "myapp://old"), Route(name: "new", pattern: "myapp://new"),
        ])
        let decider = try Decider(
            routes: table,
            interceptors: [
                SwiftInterceptor("move", scope: .route("old")) { _, _ in
                    .redirect(url: "myapp://new", params: ["from": "old"])
                },
                SwiftInterceptor("tag", scope: .route("new")) { request, _ in
                    request.params["from"] == "old"
                        ? .rewrite(params: ["seen": true]) : .reject(reason: "not carried", code: nil)
                },
            ])
        let decision = decider.decide(RouteRequest("myapp://old", params: ["a": 1]))
        guard case .open = decision.outcome else {
            Issue.record("expected to open, got \(decision.outcome)")
            return
        }
        #expect(decision.match?.route.name == "new")
        #expect(decision.redirects == ["myapp://old"])
        #expect(decision.request.url == "myapp://old")
        #expect(decision.request.params == ["a": 1])
        #expect(decision.carriedParams == ["a": 1, "from": "old", "seen": true])
    }

    @Test func aDeciderWithoutABundleRunsSwiftInterceptors() throws {
        let table = try RouteTable(routes: [Route(name: "home", pattern: "myapp://home")])
        let decider = try Decider(
            routes: table,
            interceptors: [
                SwiftInterceptor("answer", scope: .route("home")) { _, _ in .respond("hello") }
            ])
        guard case .respond(let value) = decider.decide(RouteRequest("myapp://home")).outcome else {
            Issue.record("expected a response")
            return
        }
        #expect(value == "hello")
    }

    @Test(arguments: [
        (
            "redirect { from = 'myapp://a/:id', to = 'myapp://b/{nope}' }",
            "rules.lua:1:1: error: redirect to \"myapp://b/{nope}\": {nope} is not a parameter of the from pattern; it captures {id}"
        ),
        (
            "redirect { from = 'myapp://a/:id', to = 'myapp://b/{id' }",
            "rules.lua:1:1: error: redirect to \"myapp://b/{id\": \"{\" without a closing \"}\" in \"myapp://b/{id\""
        ),
        (
            "redirect { from = 'myapp://docs/**', to = 'https://m.example.com/docs/{**}' }",
            "rules.lua:1:1: error: redirect to \"https://m.example.com/docs/{**}\": {**}: a declared redirect "
                + "carries named parameters only, not what ** matched"
        ),
        (
            "\n\nredirect { from = 'myapp://a/**/x', to = 'myapp://b' }",
            "rules.lua:3:1: error: in a redirect's from pattern: invalid pattern"
        ),
    ])
    func badDeclarationsAreLocated(rules: String, expected: String) throws {
        #expect {
            _ = try Self.decider(rules: rules)
        } throws: { error in
            let text = (error as? BundleError)?.description ?? ""
            return text.contains(expected)
        }
    }

    /// Rules that try to get around the pipeline: each must end in the decision given.
    @Test(
        arguments: [
            // A fallback cannot rewrite parameters: there is no route; the bundle's on_error applies.
            (
                "fallback(function(req) return rewrite { params = { x = 1 } } end)", "myapp://nothing",
                "reject rule_failed 500"
            ),
            // A route that declines with no other route left is unmatched, and fallbacks run.
            (
                "interceptor { name = 'no', route = 'r', run = function() return next() end }", "myapp://r/1",
                "unmatched"
            ),
            // A failing `when` rejects with the default on_error = reject ...
            (
                "redirect { from = 'myapp://r/:n', to = 'myapp://elsewhere', when = function(req) return req.params.missing.x end }",
                "myapp://r/1", "reject rule_failed 500"
            ),
            // ... and the metatable of req cannot be reached to change how it reads.
            (
                "interceptor { name = 'mt', all = true, run = function(req) return respond(type(getmetatable(req))) end }",
                "myapp://r/1", #"respond "string""#
            ),
            // A verdict that is not one is a failure, not a silent carry-on.
            (
                "interceptor { name = 'bad', all = true, run = function() return { verdict = 'open_sesame' } end }",
                "myapp://r/1", "reject rule_failed 500"
            ),
            // Templates encode what they insert: a captured "/" or "?" cannot add a segment or a query.
            ("redirect { from = 'myapp://r/:n', to = 'myapp://x/{n}' }", "myapp://r/a%2Fb%3Fq%3D1", "unmatched via 1"),
        ] as [(String, String, String)])
    func rulesCannotGetAroundThePipeline(rules: String, url: String, expected: String) throws {
        let decision = try Self.decider(rules: rules).decide(RouteRequest(url))
        #expect(
            Self.summary(decision) == expected, "\(decision.trace.steps.map(\.description).joined(separator: "\n"))")
        if expected == "unmatched via 1" { #expect(decision.uri?.string == "myapp://x/a%2Fb%3Fq%3D1") }
    }

    @Test func anOverlongURLIsRejectedAsInvalid() {
        let url = "myapp://r/" + String(repeating: "a", count: URI.maximumLength)
        guard case .reject(let rejection) = Self.decider.decide(RouteRequest(url)).outcome else {
            Issue.record("expected a rejection")
            return
        }
        #expect(rejection.cause == .invalidURL && rejection.code == 400)
    }

    /// Each rule reads the request it is given: a `when` the URL before the redirect, a
    /// chain's step after a rewrite the rewritten params, a fallback the unmatched URL — the
    /// request is handed to the rules once for the steps that share it.
    @Test(arguments: [
        ("myapp://old/5", RuleValue.string("r:5:from-a")),
        ("myapp://r/7", "r:7:from-a"),
        ("myapp://old/6", "fallback:myapp://old/6"),
        ("myapp://elsewhere?q=1", "fallback:myapp://elsewhere?q=1"),
    ])
    func eachRuleReadsTheRequestItIsGiven(url: String, expected: RuleValue) throws {
        let decider = try Self.decider(
            rules: """
                redirect { from = "myapp://old/:n", to = "myapp://r/{n}", when = function(req) return req.params.n == "4" end }
                redirect { from = "myapp://old/:n", to = "myapp://r/{n}", when = function(req) return req.path == "/5" end }
                interceptor { name = "a", all = true, priority = 10, run = function(req)
                  return rewrite { params = { x = "from-a" } }
                end }
                interceptor { name = "b", all = true, priority = 5, run = function(req)
                  return respond(req.route.name .. ":" .. req.params.n .. ":" .. req.params.x)
                end }
                fallback(function(req) return respond("fallback:" .. req.url) end)
                """)
        let decision = decider.decide(RouteRequest(url))
        guard case .respond(let value) = decision.outcome else {
            Issue.record("\(url): expected a response, got \(decision.outcome)")
            return
        }
        #expect(value == expected, "\(url)")
    }

    static func decider(rules: String) throws -> Decider {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "junction-decider-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try "name: t\nversion: 1\n".write(
            to: root.appendingPathComponent("manifest.yaml"), atomically: true, encoding: .utf8)
        try "routes:\n  - { name: r, pattern: \"myapp://r/:n\" }\n".write(
            to: root.appendingPathComponent("routes.yaml"), atomically: true, encoding: .utf8)
        try rules.write(to: root.appendingPathComponent("rules.lua"), atomically: true, encoding: .utf8)
        return try Decider(bundle: try RuleBundle.load(directory: root.path))
    }
}
