import Foundation
import Junction
import JunctionAuthoring
import JunctionTestSupport
import Testing

/// Routes registered in code: merged into the table in force under the bundle's rules,
/// kept through every bundle swap, overridden (set aside) by a bundle route of the same
/// name or pattern, refused when they clash with the table in force, removable.
@MainActor
@Suite struct RouterAppRoutesTests {
    static let guest = RouterGateTests.guest
    nonisolated static let flash = Route(name: "flash", pattern: "myapp://flash/:id", isExported: true)

    /// A bundle folder with the given routes (YAML list items) and rules, loaded.
    static func bundle(_ name: String, routes: String, rules: String = "") throws -> RuleBundle {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "junction-app-routes-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let files = [
            "manifest.yaml": "name: \(name)\nversion: 1\n",
            "routes.yaml": "routes:\n" + routes,
            "rules.lua": rules,
        ]
        for (file, text) in files {
            try text.write(to: root.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        return try RuleBundle.load(directory: root.path)
    }

    static let other = """
          - { name: home, pattern: "myapp://home", exported: true }

        """

    @Test func aCodeRouteOpensUnderTheBundlesRules() async throws {
        let router = try RouterFixture.router(context: Self.guest)
        try router.add(Self.flash, page: { TestPage($0) })
        await router.open("myapp://home")
        let opened = await router.open("myapp://flash/7", source: .push)
        #expect(opened.summary.hasPrefix("opened flash"))
        #expect(router.top?.params.string("id") == "7")

        // A code route in the bundle's login group is gated by the bundle's group policy.
        try router.add(
            Route(name: "flash.vip", pattern: "myapp://flash/vip/:id", groups: ["login"]), page: { TestPage($0) })
        let gated = await router.open("myapp://flash/vip/1")
        #expect(gated.summary.hasPrefix("gated by myapp://login"))
        // Not exported: outside callers are refused as for any route of the table.
        let refused = await router.open("myapp://flash/vip/1", source: .push)
        #expect(refused.error?.code == .rejected)
        #expect(router.appRoutes.routes.map(\.name) == ["flash", "flash.vip"])
    }

    @Test func codeRoutesSurviveEveryLoad() async throws {
        let router = try RouterFixture.router()
        try router.add(Self.flash, page: { TestPage($0) })
        try router.load(bundle: Self.bundle("other", routes: Self.other))
        #expect(await router.open("myapp://flash/1").summary.hasPrefix("opened flash"))
        try router.load(routes: RouteTable(routes: [Route(name: "home", pattern: "myapp://home")]))
        #expect(await router.open("myapp://flash/2").summary.hasPrefix("opened flash"))
        try router.add(SwiftInterceptor("noop", scope: .all) { _, _ in .continue })
        #expect(router.decider.routes.route(named: "flash") != nil)
        #expect(router.decider.routes.routes.map(\.name) == ["home", "flash"])
    }

    @Test func aBundleRouteOfTheSameNameWinsAndTheCodeRouteComesBackAfter() async throws {
        let router = try Router(bundle: Self.bundle("plain", routes: Self.other))
        router.register(page: "home") { TestPage($0) }
        try router.add(Route(name: "promo", pattern: "myapp://promo", target: "CodePromo"), page: { TestPage($0) })
        #expect(await router.open("myapp://promo").page?.name == "promo")

        let overriding = try Self.bundle(
            "overriding",
            routes: Self.other + "  - { name: promo, pattern: \"myapp://promo/v2\", target: BundlePromo }\n")
        try router.load(bundle: overriding)
        let aside = try #require(router.decider.setAsideRoutes.first)
        #expect(router.decider.setAsideRoutes.count == 1)
        #expect(aside.route.pattern == "myapp://promo")
        #expect(aside.reason.contains("the bundle's route \"promo\""))
        #expect(aside.reason.contains("has the same name"))
        #expect(router.decider.routes.route(named: "promo")?.target == "BundlePromo")
        #expect(await router.open("myapp://promo").error?.code == .unknownRoute)
        #expect(router.appRoutes.routes.map(\.name) == ["promo"])  // kept for a later bundle

        try router.load(bundle: Self.bundle("plain-again", routes: Self.other))
        #expect(router.decider.setAsideRoutes.isEmpty)
        #expect((await router.open("myapp://promo").page?.content as? TestPage)?.request.route.target == "CodePromo")
    }

    /// The log says which code routes a load sets aside, in one line however many.
    @Test func aLoadThatSetsCodeRoutesAsideSaysSoBriefly() throws {
        let router = try Router(bundle: Self.bundle("plain", routes: Self.other))
        let log = CapturedLog()
        router.logger = log.logger
        try router.add(routes: (0..<12).map { Route(name: "r\($0)", pattern: "myapp://code/\($0)") })
        let overriding = (0..<12).map { "  - { name: r\($0), pattern: \"myapp://bundle/\($0)\" }\n" }.joined()
        try router.load(bundle: Self.bundle("overriding", routes: Self.other + overriding))
        #expect(router.decider.setAsideRoutes.count == 12)
        #expect(log.entries.count == 1)
        let warning = try #require(log.entries.first)
        #expect(warning.level == .warning)
        #expect(warning.message.contains("sets aside 12 routes the app registered in code"))
        #expect(warning.message.contains("\"r4\" (the bundle's route \"r4\""))
        #expect(!warning.message.contains("\"r5\""))
        #expect(warning.message.contains("; and 7 more — rename the bundle's route, or the app's, to keep both"))
        #expect(warning.message.utf8.count < 1_500)
        // A load that overrides nothing says nothing.
        log.clear()
        try router.load(bundle: Self.bundle("plain-again", routes: Self.other))
        #expect(log.entries.isEmpty)
    }

    @Test func aBundleRouteOfTheSamePatternWins() throws {
        let router = try Router(bundle: Self.bundle("plain", routes: Self.other))
        try router.add(Self.flash)
        try router.load(
            bundle: Self.bundle(
                "same-pattern", routes: Self.other + "  - { name: sale, pattern: \"myapp://flash/:code\" }\n"))
        let aside = try #require(router.decider.setAsideRoutes.first)
        #expect(aside.route.name == "flash")
        #expect(aside.reason.contains("is the same as route \"sale\"'s"))
        #expect(aside.reason.contains("the bundle's route wins"))
        #expect(try router.decider.routes.match("myapp://flash/1")?.route.name == "sale")
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let name: String
        let routes: [Route]
        let message: String
        var testDescription: String { name }
    }

    nonisolated static let refusals: [Refusal] = [
        Refusal(
            name: "a name of the bundle's", routes: [Route(name: "home", pattern: "myapp://home/v2")],
            message: "code route \"home\" (myapp://home/v2) could never open: the bundle's route \"home\" ("),
        Refusal(
            name: "a pattern of the bundle's", routes: [Route(name: "start", pattern: "myapp://home")],
            message:
                "code route \"start\" (myapp://home) could never open: pattern \"myapp://home\" is the same as route \"home\"'s"
        ),
        Refusal(
            name: "a name of a code route", routes: [Self.flash],
            message: "a route named \"flash\" is already registered in code; remove it first"),
        Refusal(
            name: "a pattern of a code route", routes: [Route(name: "flash2", pattern: "myapp://flash/:code")],
            message: "pattern \"myapp://flash/:code\" is the same as route \"flash\"'s"),
        Refusal(
            name: "a bad pattern", routes: [Route(name: "bad", pattern: "myapp://bad/:id(")],
            message: "invalid pattern \"myapp://bad/:id(\""),
        Refusal(
            name: "a name with a space", routes: [Route(name: "two words", pattern: "myapp://two")],
            message: "route name \"two words\" must be non-empty and without spaces"),
        Refusal(
            name: "two new routes of one name",
            routes: [Route(name: "twin", pattern: "myapp://twin/1"), Route(name: "twin", pattern: "myapp://twin/2")],
            message: "duplicate route name \"twin\""),
    ]

    @Test(arguments: refusals)
    func aClashWithTheTableInForceIsRefusedAndChangesNothing(_ refusal: Refusal) throws {
        let router = try RouterFixture.router()
        try router.add(Self.flash)
        let before = router.policy.current
        #expect {
            try router.add(routes: refusal.routes)
        } throws: { error in
            (error as? BundleError)?.description.contains(refusal.message) == true
        }
        #expect(router.policy.current === before)
        #expect(router.appRoutes.routes.map(\.name) == ["flash"])
    }

    @Test func removingACodeRouteRemovesOnlyIt() async throws {
        let router = try RouterFixture.router()
        try router.add(routes: [Self.flash, Route(name: "flash.b", pattern: "myapp://flash-b")])
        router.register(page: "flash") { TestPage($0) }
        #expect(try router.removeRoute(named: "flash"))
        #expect(router.appRoutes.routes.map(\.name) == ["flash.b"])
        #expect(router.decider.routes.route(named: "flash") == nil)
        #expect(router.decider.decide(RouteRequest("myapp://flash/1")).match?.route.name != "flash")
        #expect(try router.removeRoute(named: "flash") == false)  // gone already
        #expect(try router.removeRoute(named: "nothing") == false)
        #expect {
            try router.removeRoute(named: "home")
        } throws: { error in
            (error as? BundleError)?.description.contains("route \"home\" is the table's (") == true
        }
        #expect(router.decider.routes.route(named: "home") != nil)
    }

    @Test func aRuleMayNameACodeRouteWhichThenCannotBeRemoved() throws {
        let rules = """
            interceptor { name = "stamp", route = "flash", run = function(req, ctx)
              return rewrite { params = { stamped = true } }
            end }

            """
        let naming = try Self.bundle("naming", routes: Self.other, rules: rules)
        let router = try Router(bundle: Self.bundle("plain", routes: Self.other))
        // Without the code route the bundle does not build: its rule names no route.
        #expect(throws: BundleError.self) { try Decider(bundle: naming) }
        try router.add(Self.flash)
        try router.load(bundle: naming)
        let decision = router.decider.decide(RouteRequest("myapp://flash/1"))
        #expect(decision.carriedParams["stamped"] != nil)
        #expect {
            try router.removeRoute(named: "flash")
        } throws: { error in
            (error as? BundleError)?.description.contains("interceptor \"stamp\": route = \"flash\" names no route")
                == true
        }
        #expect(router.appRoutes.routes.map(\.name) == ["flash"])
    }

    @Test func aTaskRegisteredWithItsRouteAnswersInvoke() throws {
        let router = try RouterFixture.router()
        try router.add(Route(name: "ping", pattern: "myapp://ping"), task: { _ in "pong" })
        #expect(try router.invoke("myapp://ping") as? String == "pong")
        // A refused route registers no target.
        #expect(throws: BundleError.self) {
            try router.add(Route(name: "home", pattern: "myapp://elsewhere"), task: { _ in "no" })
        }
        #expect {
            try router.invoke("myapp://home")
        } throws: { error in
            (error as? RouterError)?.code == .notATask
        }
    }
}
