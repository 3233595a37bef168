import Foundation
import Junction
import JunctionTooling
import JunctionAuthoring
import Testing

/// One request decided under two policies, and the change `junction diff` must report.
struct ChangeCase: CustomTestStringConvertible, Sendable {
    let name: String
    var oldRules = ""
    var newRules = ""
    var oldRoutes = ChangeCase.routes
    var newRoutes = ChangeCase.routes
    var url: String
    var context: [String: RuleValue] = [:]
    let kind: DecisionChange.Kind?
    /// The rule or route named by the first step where the traces part.
    var partsAt: String? = nil
    /// What the change is put down to, as reports show it.
    var cause: String? = nil

    var testDescription: String { name }

    static let routes = """
        options:
          dispatchedSchemes: [https, flutter]
        routes:
          - { name: home, pattern: "myapp://home", exported: true }
          - { name: user, pattern: "myapp://user/:id", exported: true, params: { id: int } }
          - { name: order, pattern: "myapp://order/:id", exported: true, groups: [login] }
          - { name: shop, pattern: "myapp://shop", exported: true }
          - { name: login, pattern: "myapp://login", exported: true }
          - { name: ping, pattern: "myapp://action/ping", exported: true }
        """

    static let login = """
        group("login", function(req, ctx) if ctx.user == nil then return gate("myapp://login", { resume = true }) end end)

        """

    static func interceptor(_ name: String, route: String, _ body: String) -> String {
        "interceptor { name = \"\(name)\", route = \"\(route)\", run = function(req, ctx) \(body) end }\n"
    }
}

@Suite struct DecisionChangeTests {
    static let cases: [ChangeCase] = [
        ChangeCase(name: "identical bundles", url: "myapp://user/1", kind: nil),
        ChangeCase(
            name: "a rule moved down a line does nothing new",
            oldRules: ChangeCase.interceptor("audit", route: "home", "return nil"),
            newRules: "-- a comment\n\n" + ChangeCase.interceptor("audit", route: "home", "return nil"),
            url: "myapp://home", kind: nil),
        ChangeCase(
            name: "a rule that fails under on_error = continue",
            newRules:
                "interceptor { name = \"boom\", all = true, on_error = \"continue\", run = function() error(\"bad\") end }\n",
            url: "myapp://home", kind: .ruleNowFails, partsAt: "boom", cause: "rule \"boom\" (rules.lua:1)"),
        ChangeCase(
            name: "a rule that fails and rejects",
            newRules: ChangeCase.interceptor("boom", route: "home", "return req.params.x.y"),
            url: "myapp://home", kind: .ruleNowFails, partsAt: "boom", cause: "rule \"boom\" (rules.lua:1)"),
        ChangeCase(
            name: "a rule that failed before still fails",
            oldRules: ChangeCase.interceptor("boom", route: "home", "error('old')"),
            newRules: ChangeCase.interceptor("boom", route: "home", "error('new')"),
            url: "myapp://home", kind: .rejectionChanged, partsAt: "boom", cause: "rule \"boom\" (rules.lua:1)"),
        ChangeCase(
            name: "a route removed", newRoutes: ChangeCase.routes.replacingOccurrences(of: "shop", with: "shopping"),
            url: "myapp://shop", kind: .nowUnmatched, cause: "route shop"),
        ChangeCase(
            name: "a route added",
            oldRoutes: ChangeCase.routes.replacingOccurrences(of: "myapp://shop", with: "myapp://mall"),
            url: "myapp://shop", kind: .nowMatched, cause: "route shop"),
        ChangeCase(
            name: "an interceptor now rejects",
            newRules: ChangeCase.interceptor("closed", route: "home", "return reject('closed', 503)"),
            url: "myapp://home", kind: .nowRejected, partsAt: "closed", cause: "rule \"closed\" (rules.lua:1)"),
        ChangeCase(
            name: "an interceptor no longer rejects",
            oldRules: ChangeCase.interceptor("closed", route: "home", "return reject('closed', 503)"),
            url: "myapp://home", kind: .noLongerRejected, partsAt: "closed", cause: "rule \"closed\" (rules.lua:1)"),
        ChangeCase(
            name: "another reason",
            oldRules: ChangeCase.interceptor("closed", route: "home", "return reject('closed', 503)"),
            newRules: ChangeCase.interceptor("closed", route: "home", "return reject('closed', 451)"),
            url: "myapp://home", kind: .rejectionChanged, partsAt: "closed", cause: "rule \"closed\" (rules.lua:1)"),
        ChangeCase(
            name: "a login gate added", newRules: ChangeCase.login, url: "myapp://order/7", kind: .nowGated,
            partsAt: "login", cause: "rule \"login\" (rules.lua:1)"),
        ChangeCase(
            name: "the gate's user logged in", oldRules: ChangeCase.login, newRules: ChangeCase.login,
            url: "myapp://order/7", context: ["user": ["id": 1]], kind: nil),
        ChangeCase(
            name: "a login gate removed", oldRules: ChangeCase.login, url: "myapp://order/7", kind: .noLongerGated,
            cause: "rule \"login\" (rules.lua:1)"),
        ChangeCase(
            name: "a gate that no longer resumes", oldRules: ChangeCase.login,
            newRules: ChangeCase.login.replacingOccurrences(of: "resume = true", with: "resume = false"),
            url: "myapp://order/7", kind: .gateChanged, partsAt: "login", cause: "rule \"login\" (rules.lua:1)"),
        ChangeCase(
            name: "a page sent to H5",
            newRules: "redirect { from = \"myapp://shop\", to = \"https://m.example.com/shop\" }\n",
            url: "myapp://shop", kind: .nowHandedOver, cause: "redirect myapp://shop (rules.lua:1)"),
        ChangeCase(
            name: "a page back from H5",
            oldRules: "redirect { from = \"myapp://shop\", to = \"https://m.example.com/shop\" }\n",
            url: "myapp://shop", kind: .noLongerHandedOver, cause: "redirect myapp://shop (rules.lua:1)"),
        ChangeCase(
            name: "H5 to Flutter",
            oldRules: "redirect { from = \"myapp://shop\", to = \"https://m.example.com/shop\" }\n",
            newRules: "redirect { from = \"myapp://shop\", to = \"flutter://shop\" }\n",
            url: "myapp://shop", kind: .handedOverElsewhere, cause: "redirect myapp://shop (rules.lua:1)"),
        ChangeCase(
            name: "another H5 page",
            oldRules: "redirect { from = \"myapp://shop\", to = \"https://m.example.com/shop\" }\n",
            newRules: "redirect { from = \"myapp://shop\", to = \"https://m.example.com/mall\" }\n",
            url: "myapp://shop", kind: .handedOverElsewhere, cause: "redirect myapp://shop (rules.lua:1)"),
        ChangeCase(
            name: "a redirect to another page",
            newRules: "redirect { from = \"myapp://home\", to = \"myapp://shop\" }\n",
            url: "myapp://home", kind: .otherRoute, cause: "redirect myapp://home (rules.lua:1)"),
        ChangeCase(
            name: "an action route now opens a page",
            oldRules: ChangeCase.interceptor("pong", route: "ping", "return respond(1)"),
            newRules: ChangeCase.interceptor("pong", route: "ping", "return redirect('myapp://home')"),
            url: "myapp://action/ping", kind: .otherRoute, partsAt: "pong", cause: "rule \"pong\" (rules.lua:1)"),
        ChangeCase(
            name: "a longer redirect chain to the same page",
            oldRules: "redirect { from = \"myapp://old\", to = \"myapp://user/1\" }\n",
            newRules:
                "redirect { from = \"myapp://old\", to = \"myapp://older\" }\nredirect { from = \"myapp://older\", to = \"myapp://user/1\" }\n",
            url: "myapp://old", kind: .redirectsChanged, cause: "redirect myapp://old (rules.lua:1)"),
        ChangeCase(
            name: "a rewrite adds a parameter",
            newRules: ChangeCase.interceptor("tab", route: "user", "return rewrite({ params = { tab = 'posts' } })"),
            url: "myapp://user/1", kind: .paramsChanged, partsAt: "tab", cause: "rule \"tab\" (rules.lua:1)"),
        ChangeCase(
            name: "another answer",
            oldRules: ChangeCase.interceptor("pong", route: "ping", "return respond(1)"),
            newRules: ChangeCase.interceptor("pong", route: "ping", "return respond(2)"),
            url: "myapp://action/ping", kind: .responseChanged, partsAt: "pong", cause: "rule \"pong\" (rules.lua:1)"),
        ChangeCase(
            name: "the same NaN answer",
            oldRules: ChangeCase.interceptor("pong", route: "ping", "return respond(0/0)"),
            newRules: ChangeCase.interceptor("pong", route: "ping", "return respond(0/0)"),
            url: "myapp://action/ping", kind: nil),
        ChangeCase(
            name: "a page now answered by a rule",
            newRules: ChangeCase.interceptor("pong", route: "ping", "return respond(true)"),
            url: "myapp://action/ping", kind: .outcomeChanged, partsAt: "pong", cause: "rule \"pong\" (rules.lua:1)"),
        ChangeCase(
            name: "unmatched under both, through another redirect",
            newRules: "redirect { from = \"myapp://nowhere\", to = \"myapp://elsewhere\" }\n",
            url: "myapp://nowhere", kind: .redirectsChanged, cause: "redirect myapp://nowhere (rules.lua:1)"),
    ]

    @Test(arguments: cases)
    func classifiesTheChange(_ change: ChangeCase) throws {
        let old = try Self.decider(routes: change.oldRoutes, rules: change.oldRules)
        let new = try Self.decider(routes: change.newRoutes, rules: change.newRules)
        let request = RouteRequest(change.url)
        let context = ContextSnapshot(change.context)
        let found = DecisionChange(
            old: old.decide(request, context: context), new: new.decide(request, context: context))
        #expect(found?.kind == change.kind)
        if let partsAt = change.partsAt {
            #expect(found?.divergence?.new?.name ?? found?.divergence?.old?.name == partsAt)
        }
        if let cause = change.cause {
            #expect(found?.cause.description == cause)
        }
    }

    @Test func namesTheRuleThatNowFails() throws {
        let old = try Self.decider(routes: ChangeCase.routes, rules: "")
        let new = try Self.decider(
            routes: ChangeCase.routes, rules: ChangeCase.interceptor("boom", route: "home", "error('x')"))
        let request = RouteRequest("myapp://home")
        let change = try #require(DecisionChange(old: old.decide(request), new: new.decide(request)))
        #expect(change.failingRules == ["boom"])
        #expect(change.divergence?.index == 1)
        #expect(change.divergence?.old == nil)
        #expect(change.divergence?.new?.error != nil)
    }

    @Test func everyKindHasAPhraseAndASnakeCaseName() {
        for kind in DecisionChange.Kind.allCases {
            #expect(!kind.phrase.isEmpty)
            #expect(kind.rawValue.allSatisfy { $0.isLowercase || $0 == "_" })
        }
        #expect(Set(DecisionChange.Kind.allCases.map(\.rawValue)).count == DecisionChange.Kind.allCases.count)
    }

    static func decider(routes: String, rules: String) throws -> Decider {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("junction-change-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try "name: change-test\nversion: 1\n".write(
            to: root.appendingPathComponent("manifest.yaml"), atomically: true, encoding: .utf8)
        try routes.write(to: root.appendingPathComponent("routes.yaml"), atomically: true, encoding: .utf8)
        try rules.write(to: root.appendingPathComponent("rules.lua"), atomically: true, encoding: .utf8)
        return try Decider(bundle: RuleBundle.load(directory: root.path))
    }
}
