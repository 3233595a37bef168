import Junction
import Testing

/// One decision path: an async interceptor's verdict is read by the code that reads a Lua
/// rule's — from every source, the open, the decision, its carried parameters, its
/// redirects and its trace are the same — and redirects and gates across the synchronous
/// and the async stages are counted once per open.
@MainActor
@Suite struct AsyncVerdictEquivalenceTests {
    /// A verdict, as a Lua rule returns it and as an async interceptor does.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let lua: String
        let verdict: Verdict
        var url = "myapp://item/7?x=1"
        var testDescription: String { name }
    }

    nonisolated static let cases: [Case] = [
        Case(name: "continue", lua: "nil", verdict: .continue),
        Case(name: "next", lua: "next()", verdict: .next),
        Case(
            name: "rewrite", lua: "rewrite { params = { tab = 'likes' } }",
            verdict: .rewrite(params: ["tab": "likes"])),
        Case(
            name: "reject", lua: "reject('token expired', 401)", verdict: .reject(reason: "token expired", code: 401)
        ),
        Case(name: "gate", lua: "gate('myapp://login')", verdict: .gate(url: "myapp://login", resume: true)),
        Case(
            name: "gate, no resume", lua: "gate('myapp://login', { resume = false })",
            verdict: .gate(url: "myapp://login", resume: false)),
        Case(
            name: "gate to itself", lua: "gate('myapp://item/7')", verdict: .gate(url: "myapp://item/7", resume: true),
            url: "myapp://item/7"),
        Case(name: "respond", lua: "respond('cached')", verdict: .respond("cached")),
        Case(
            name: "redirect with params", lua: "redirect('myapp://home', { from = 'item' })",
            verdict: .redirect(url: "myapp://home", params: ["from": "item"])),
        Case(
            name: "redirect keep_query", lua: "redirect('myapp://home', { keep_query = true })",
            verdict: .redirect(url: "myapp://home", keepQuery: true)),
        Case(
            name: "a verdict too large", lua: "respond(string.rep('x', 70000))",
            verdict: .respond(.string(String(repeating: "x", count: 70_000)))),
    ]

    static let routes = """
          - { name: item, pattern: "myapp://item/:id", exported: true, params: { id: int } }
          - { name: item.any, pattern: "myapp://item/:key", exported: true }
          - { name: home, pattern: "myapp://home", exported: true }
          - { name: login, pattern: "myapp://login", exported: true }

        """

    /// A router with a page for every route, keeping the decisions it reports.
    @MainActor final class Observed {
        let router: Router
        var decisions: [Decision] = []

        init(_ bundle: RuleBundle, options: DeciderOptions = DeciderOptions()) throws {
            router = try Router(bundle: bundle, options: options)
            for target in ["item", "item.any", "home", "login"] { router.register(page: target) { TestPage($0) } }
            router.decisionObserver = { [unowned self] in self.decisions.append($0) }
        }
    }

    /// Each step as `stage name verdict-or-detail error`: where it was declared
    /// (`rules.lua:1`, `async`) and its time differ by design.
    static func shape(_ decision: Decision) -> [String] {
        decision.trace.steps.map {
            "\($0.stage.rawValue) \($0.name ?? "-") \($0.verdict?.summary ?? $0.detail) \($0.error ?? "")"
        }
    }

    @Test(arguments: cases, RequestSource.standard)
    func anAsyncVerdictDecidesAsTheSameLuaRule(_ test: Case, source: RequestSource) async throws {
        let rule = "interceptor { name = 't', route = 'item', run = function(req) return \(test.lua) end }\n"
        let lua = try Observed(RouterAppRoutesTests.bundle("lua", routes: Self.routes, rules: rule))
        let awaiting = try Observed(RouterAppRoutesTests.bundle("async", routes: Self.routes))
        let verdict = test.verdict
        try awaiting.router.add(AsyncInterceptor("t", scope: .route("item")) { _, _ in verdict })

        let byLua = await lua.router.open(test.url, source: source)
        let byAsync = await awaiting.router.open(test.url, source: source)
        #expect(byAsync.summary == byLua.summary)
        let expected = try #require(lua.decisions.first)
        let actual = try #require(awaiting.decisions.first)
        #expect(actual.summary == expected.summary)
        #expect(actual.carriedParams == expected.carriedParams)
        #expect(actual.redirects == expected.redirects)
        #expect(Self.shape(actual) == Self.shape(expected))
        #expect(actual.trace.steps.contains { $0.name == "t" && $0.location == "async" })
        #expect(expected.trace.steps.contains { $0.name == "t" && $0.location == "rules.lua:1" })
    }

    /// What the table above means, spelled out for three verdicts the Router used to read
    /// its own way.
    @Test func theVerdictsTheRouterOnceReadItsOwnWayNowMeanWhatARulesDo() async throws {
        for (verdict, expected) in [
            (Verdict.redirect(url: "myapp://home", keepQuery: true), "opened home #1"),
            (.next, "opened item.any #1"),
            (
                .gate(url: "myapp://item/7?x=1", resume: true),
                "failed: rejected: rejected (508) by t: gate loop: myapp://item/7?x=1 gates itself"
            ),
        ] {
            let observed = try Observed(RouterAppRoutesTests.bundle("async", routes: Self.routes))
            try observed.router.add(AsyncInterceptor("t", scope: .route("item")) { _, _ in verdict })
            #expect(await observed.router.open("myapp://item/7?x=1").summary == expected)
            if case .redirect = verdict { #expect(observed.router.top?.url == "myapp://home?x=1") }
        }
    }

    /// A Lua rule a → b and an async interceptor b → a, on URLs that never repeat: one
    /// count, one limit, one decision.
    @Test func redirectsAcrossARuleAndAnAsyncInterceptorStopAtOneLimit() async throws {
        let routes = """
              - { name: a, pattern: "myapp://a/:n", exported: true, params: { n: int } }
              - { name: b, pattern: "myapp://b/:n", exported: true, params: { n: int } }

            """
        let rules = """
            interceptor { name = 'ping', route = 'a', run = function(req)
              return redirect('myapp://b/' .. (req.params.n + 1))
            end }

            """
        let observed = try Observed(
            RouterAppRoutesTests.bundle("pingpong", routes: routes, rules: rules),
            options: DeciderOptions(maximumRedirects: 3))
        try observed.router.add(
            AsyncInterceptor("pong", scope: .route("b")) { request, _ in
                guard case .int(let n)? = request.params["n"] else { return .reject(reason: "no n", code: 400) }
                return .redirect(url: "myapp://a/\(n + 1)")
            })
        let opening = await observed.router.open("myapp://a/0", source: .push)
        let rejection = try #require(opening.error?.rejection)
        #expect(rejection.cause == .tooManyRedirects)
        #expect(
            rejection.reason
                == "more than 3 redirects: myapp://a/0 → myapp://b/1 → myapp://a/2 → myapp://b/3 → myapp://a/4")
        #expect(observed.decisions.count == 1)
        let decision = try #require(observed.decisions.first)
        #expect(decision.redirects == ["myapp://a/0", "myapp://b/1", "myapp://a/2"])
        #expect(
            decision.trace.steps.filter { $0.verdict != nil }.map { "\($0.name ?? "") \($0.location ?? "")" }
                == ["ping rules.lua:1", "pong async", "ping rules.lua:1", "pong async"])
    }

    /// An async interceptor that gates every route — its own gate's page too — is bounded
    /// as a rule's gate is: the gate's page gating itself is refused.
    @Test(.timeLimit(.minutes(5))) func anAsyncGateIsBoundedAsARulesIs() async throws {
        let observed = try Observed(RouterAppRoutesTests.bundle("gates", routes: Self.routes))
        try observed.router.add(
            AsyncInterceptor("sso", scope: .all) { _, _ in .gate(url: "myapp://login", resume: true) })
        let opening = await observed.router.open("myapp://home")
        #expect(
            opening.summary
                == "gated by myapp://login: failed: rejected: rejected (508) by sso: gate loop: myapp://login gates itself"
        )
        #expect(observed.router.pages.isEmpty)
    }

    /// A gate an async interceptor passed and resumed after, asked again, is a loop: the
    /// decision refuses it, not the Router.
    @Test func gatingAgainOnAGatePassedIsALoopOfTheDecision() async throws {
        let observed = try Observed(RouterAppRoutesTests.bundle("gates", routes: Self.routes))
        try observed.router.add(
            AsyncInterceptor("sso", scope: .route("item")) { _, _ in .gate(url: "myapp://login", resume: true) })
        let log = ResultLog()
        let opening = await observed.router.open("myapp://item/7", onResult: log.callback("item"))
        #expect(opening.summary == "gated by myapp://login: opened login #1")
        let login = try #require(observed.router.top)
        observed.router.finish(login.id, with: .ok())
        await observed.router.settle()
        #expect(log.lines == ["item: rejected"])
        guard case .reject(let rejection)? = observed.decisions.last?.outcome else {
            Issue.record("the resumed open was not refused: \(observed.decisions.last?.summary ?? "no decision")")
            return
        }
        #expect(
            rejection
                == Rejection(
                    .gateLoop,
                    reason: "gate loop: myapp://item/7 was gated by myapp://login again after myapp://login succeeded",
                    code: 508, rule: "sso"))
    }

    /// The undefined-route handler's URL is a redirect of the same open: one decision, the
    /// hooks once, the hop in the trace and counted.
    @Test func theUndefinedRouteHandlersURLIsARedirectOfTheSameOpen() async throws {
        let observed = try Observed(RouterAppRoutesTests.bundle("undefined", routes: Self.routes))
        observed.router.undefinedRouteHandler = { _ in "myapp://home" }
        var hooks: [String] = []
        observed.router.willOpen = { hooks.append("will \($0.url)") }
        observed.router.didOpen = { request, opening in hooks.append("did \(request.url) \(opening.summary)") }
        let opening = await observed.router.open("myapp://nowhere")
        #expect(opening.summary == "opened home #1")
        #expect(hooks == ["will myapp://nowhere", "did myapp://nowhere opened home #1"])
        let decision = try #require(observed.decisions.first)
        #expect(observed.decisions.count == 1)
        #expect(decision.redirects == ["myapp://nowhere"])
        #expect(decision.trace.steps.contains { $0.name == "undefinedRouteHandler" && $0.location == "router" })
    }

    /// A handler that sends a URL nothing takes to another such URL is asked once: the
    /// second is unmatched, and the message says the handler named nothing for it.
    @Test func theUndefinedRouteHandlerIsAskedOncePerOpen() async throws {
        let observed = try Observed(RouterAppRoutesTests.bundle("undefined", routes: Self.routes))
        var asked = 0
        observed.router.undefinedRouteHandler = { decision in
            asked += 1
            return "myapp://still-nowhere"
        }
        let opening = await observed.router.open("myapp://nowhere")
        #expect(asked == 1)
        #expect(opening.error?.code == .unknownRoute)
        #expect(opening.error?.message.contains("the undefinedRouteHandler named no URL for it") == true)
        #expect(observed.decisions.first?.redirects == ["myapp://nowhere"])
    }
}
