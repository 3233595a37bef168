import Junction
import JunctionTooling
import JunctionAuthoring
import Testing

@Suite struct PolicyExerciseTests {
    static let rules = """
        redirect { from = "myapp://old", to = "myapp://home" }
        redirect { from = "myapp://feed/:id", to = "myapp://user/{id}", when = function(req, ctx) return ctx.new end }
        interceptor { name = "audit", all = true, run = function(req, ctx) end }
        interceptor { name = "pong", route = "ping", run = function(req, ctx) return respond(1) end }
        group("login", function(req, ctx) if ctx.user == nil then return gate("myapp://login") end end)
        fallback(function(req, ctx) end)
        """

    @Test(arguments: [
        (
            ["myapp://home"], ["user", "order", "shop", "login", "ping"],
            [
                "redirect myapp://old → myapp://home (rules.lua:1)",
                "redirect myapp://feed/:id → myapp://user/{id} (rules.lua:2)", "interceptor pong (rules.lua:4)",
                "group login (rules.lua:5)", "fallback (rules.lua:6)",
            ]
        ),
        (
            ["myapp://old", "myapp://order/1", "myapp://action/ping", "myapp://nowhere", "myapp://feed/2"],
            ["user", "shop", "login"], []
        ),
    ])
    func tellsWhatACorpusNeverReached(urls: [String], routes: [String], rules: [String]) throws {
        let decider = try DecisionChangeTests.decider(routes: ChangeCase.routes, rules: Self.rules)
        let bundle = try #require(decider.bundle)
        // Two shares of the corpus, merged, as the workers of a diff merge theirs.
        var first = PolicyExercise()
        var second = PolicyExercise()
        for (index, url) in urls.enumerated() {
            let decision = decider.decide(RouteRequest(url))
            if index.isMultiple(of: 2) { first.record(decision) } else { second.record(decision) }
        }
        first.merge(second)
        #expect(first.unexercisedRoutes(of: bundle).map(\.name) == routes)
        #expect(first.unexercisedRules(of: bundle) == rules)
    }
}
