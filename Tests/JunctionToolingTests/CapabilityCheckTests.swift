import Foundation
import Junction
import JunctionTooling
import JunctionAuthoring
import Testing

/// What app versions that load a bundle cannot open, as a table: a bundle and the
/// capabilities of some app versions in, the findings about them out as
/// `FILE:LINE:COL: severity: message [code]` with files relative to the bundle.
@Suite struct CapabilityCheckTests {
    /// One bundle, the apps it is checked against, and every capability finding expected.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var minimumHostVersion: String?
        var routes: String
        var rules: String = ""
        var apps: [CapabilitiesFile]
        var expected: [String]

        var testDescription: String { name }
    }

    static func app(
        _ version: String, pages: Set<String> = [], tasks: Set<String> = [], dispatchers: Set<String> = []
    ) -> CapabilitiesFile {
        CapabilitiesFile(
            path: "app-\(version).json",
            capabilities: AppCapabilities(
                hostVersion: SemanticVersion(version)!, pages: pages, tasks: tasks, dispatchers: dispatchers))
    }

    static let liveRoutes = """
        options: { dispatchedSchemes: [https] }
        routes:
          - { name: home, pattern: "myapp://home" }
          - { name: live, pattern: "myapp://live/:room", target: LivePage, params: { room: int } }
        """

    static let cases: [Case] = [
        Case(
            name: "the 6.0 app lacks the page only 6.1 has: the route and the manifest are errors",
            minimumHostVersion: "5.0.0", routes: liveRoutes,
            apps: [
                app("6.0.0", pages: ["home"], dispatchers: ["https"]),
                app("6.1.0", pages: ["home", "LivePage"], dispatchers: ["https"]),
            ],
            expected: [
                #"manifest.yaml:3:1: error: minimum_host_version 5.0.0 lets app 6.0.0 (app-6.0.0.json) load this bundle, but that app has no page or task for target "LivePage", so what the bundle leads there opens nothing — send version 6.0.0 and older elsewhere where the bundle leads them there (each finding at a route or redirect says how), or raise minimum_host_version above 6.0.0 (app 6.1.0 (app-6.1.0.json) has everything it leads to): then that app refuses the whole bundle, every other change in it too, and keeps the bundle it has [host-version-too-low]"#,
                #"routes.yaml:4:5: error: route "live" (myapp://live/:room) leads to target "LivePage", which app 6.0.0 (app-6.0.0.json) has no page or task for, so there it opens nothing — send those versions elsewhere with an interceptor of the route (route = "live", run = function(req, ctx) if version.compare(ctx.app_version, "6.0.0") <= 0 then return redirect("https://…") end end), point the route at a target that app has, or remove it; raising minimum_host_version above 6.0.0 would make app 6.0.0 (app-6.0.0.json) refuse the whole bundle, every other change in it too [target-missing]"#,
            ]),
        Case(
            name: "a minimum_host_version above 6.0 leaves that app out",
            minimumHostVersion: "6.1.0", routes: liveRoutes,
            apps: [
                app("6.0.0", pages: ["home"], dispatchers: ["https"]),
                app("6.1.0", pages: ["home", "LivePage"], dispatchers: ["https"]),
            ],
            expected: []),
        Case(
            name: "apps that lack the same target are named together, the newest in the fix",
            minimumHostVersion: "6.0", routes: liveRoutes,
            apps: [
                app("6.0.5", pages: ["home"], dispatchers: ["https"]),
                app("6.0.0", pages: ["home"], dispatchers: ["https"]),
            ],
            expected: [
                #"manifest.yaml:3:1: error: minimum_host_version 6.0.0 lets app 6.0.5 (app-6.0.5.json) load this bundle, but that app has no page or task for target "LivePage", so what the bundle leads there opens nothing — send version 6.0.5 and older elsewhere where the bundle leads them there (each finding at a route or redirect says how), or raise minimum_host_version above 6.0.5: then that app refuses the whole bundle, every other change in it too, and keeps the bundle it has [host-version-too-low]"#,
                #"manifest.yaml:3:1: error: minimum_host_version 6.0.0 lets app 6.0.0 (app-6.0.0.json) load this bundle, but that app has no page or task for target "LivePage", so what the bundle leads there opens nothing — send version 6.0.0 and older elsewhere where the bundle leads them there (each finding at a route or redirect says how), or raise minimum_host_version above 6.0.0: then that app refuses the whole bundle, every other change in it too, and keeps the bundle it has [host-version-too-low]"#,
                #"routes.yaml:4:5: error: route "live" (myapp://live/:room) leads to target "LivePage", which apps 6.0.5 (app-6.0.5.json) and 6.0.0 (app-6.0.0.json) have no page or task for, so there it opens nothing — send those versions elsewhere with an interceptor of the route (route = "live", run = function(req, ctx) if version.compare(ctx.app_version, "6.0.5") <= 0 then return redirect("https://…") end end), point the route at a target those apps have, or remove it; raising minimum_host_version above 6.0.5 would make apps 6.0.5 (app-6.0.5.json) and 6.0.0 (app-6.0.0.json) refuse the whole bundle, every other change in it too [target-missing]"#,
            ]),
        Case(
            name: "declared and returned redirects to a missing target point at the redirect",
            minimumHostVersion: "5.0.0", routes: liveRoutes,
            rules: """
                redirect { from = "myapp://feed/:room", to = "myapp://live/{room}" }
                redirect { from = "myapp://old", to = "myapp://home" }
                interceptor { name = "promo", route = "home", run = function(req, ctx)
                  if ctx.promo then return redirect("myapp://live/7") end
                end }
                """,
            apps: [app("6.0.0", pages: ["home"], dispatchers: ["https"])],
            expected: [
                #"manifest.yaml:3:1: error: minimum_host_version 5.0.0 lets app 6.0.0 (app-6.0.0.json) load this bundle, but that app has no page or task for target "LivePage", so what the bundle leads there opens nothing — send version 6.0.0 and older elsewhere where the bundle leads them there (each finding at a route or redirect says how), or raise minimum_host_version above 6.0.0: then that app refuses the whole bundle, every other change in it too, and keeps the bundle it has [host-version-too-low]"#,
                #"routes.yaml:4:5: error: route "live" (myapp://live/:room) leads to target "LivePage", which app 6.0.0 (app-6.0.0.json) has no page or task for, so there it opens nothing — send those versions elsewhere with an interceptor of the route (route = "live", run = function(req, ctx) if version.compare(ctx.app_version, "6.0.0") <= 0 then return redirect("https://…") end end), point the route at a target that app has, or remove it; raising minimum_host_version above 6.0.0 would make app 6.0.0 (app-6.0.0.json) refuse the whole bundle, every other change in it too [target-missing]"#,
                #"rules.lua:1:46: error: redirect from "myapp://feed/:room" to "myapp://live/{room}" leads to route "live", whose target "LivePage" app 6.0.0 (app-6.0.0.json) has no page or task for, e.g. myapp://feed/7 → myapp://live/7 — redirect to a URL that app opens, or only for versions after 6.0.0 (a when condition with version.compare); raising minimum_host_version above 6.0.0 would make app 6.0.0 (app-6.0.0.json) refuse the whole bundle, every other change in it too [redirect-to-missing-target]"#,
                #"rules.lua:4:37: error: interceptor "promo" returns redirect("myapp://live/7") and so leads to route "live", whose target "LivePage" app 6.0.0 (app-6.0.0.json) has no page or task for — redirect to a URL that app opens, or only for versions after 6.0.0 (test version.compare(ctx.app_version, "6.0.0") > 0 first); raising minimum_host_version above 6.0.0 would make app 6.0.0 (app-6.0.0.json) refuse the whole bundle, every other change in it too [redirect-to-missing-target]"#,
            ]),
        Case(
            name: "a fallback to a missing target points at its redirect",
            minimumHostVersion: "5.0.0",
            routes: """
                routes:
                  - { name: home, pattern: "myapp://home" }
                  - { name: upgrade, pattern: "myapp://upgrade", target: UpgradePage }
                """,
            rules: """
                fallback(function(req, ctx)
                  if req.scheme == "myapp" then
                    return redirect("myapp://upgrade")
                  end
                end)
                """,
            apps: [app("5.1.0", pages: ["home"])],
            expected: [
                #"manifest.yaml:3:1: error: minimum_host_version 5.0.0 lets app 5.1.0 (app-5.1.0.json) load this bundle, but that app has no page or task for target "UpgradePage", so what the bundle leads there opens nothing — send version 5.1.0 and older elsewhere where the bundle leads them there (each finding at a route or redirect says how), or raise minimum_host_version above 5.1.0: then that app refuses the whole bundle, every other change in it too, and keeps the bundle it has [host-version-too-low]"#,
                #"routes.yaml:3:5: error: route "upgrade" (myapp://upgrade) leads to target "UpgradePage", which app 5.1.0 (app-5.1.0.json) has no page or task for, so there it opens nothing — send those versions elsewhere with an interceptor of the route (route = "upgrade", run = function(req, ctx) if version.compare(ctx.app_version, "5.1.0") <= 0 then return redirect("https://…") end end), point the route at a target that app has, or remove it; raising minimum_host_version above 5.1.0 would make app 5.1.0 (app-5.1.0.json) refuse the whole bundle, every other change in it too [target-missing]"#,
                #"rules.lua:3:21: error: a fallback returns redirect("myapp://upgrade") and so leads to route "upgrade", whose target "UpgradePage" app 5.1.0 (app-5.1.0.json) has no page or task for — redirect to a URL that app opens, or only for versions after 5.1.0 (test version.compare(ctx.app_version, "5.1.0") > 0 first); raising minimum_host_version above 5.1.0 would make app 5.1.0 (app-5.1.0.json) refuse the whole bundle, every other change in it too [redirect-to-missing-target]"#,
            ]),
        Case(
            name: "a dispatched scheme without a dispatcher, and a redirect handed to it",
            routes: """
                options:
                  dispatchedSchemes: [https, flutter]
                routes:
                  - { name: home, pattern: "myapp://home" }
                """,
            rules: """
                redirect { from = "myapp://feed", to = "flutter://feed" }
                redirect { from = "myapp://help", to = "https://help.example.com" }
                """,
            apps: [app("6.0.0", pages: ["home"], dispatchers: ["https"])],
            expected: [
                #"manifest.yaml:1:1: error: the manifest sets no minimum_host_version, so app 6.0.0 (app-6.0.0.json) loads this bundle, but that app has no dispatcher for scheme "flutter", so what the bundle leads there opens nothing — send version 6.0.0 and older elsewhere where the bundle leads them there (each finding at a route or redirect says how), or raise minimum_host_version above 6.0.0: then that app refuses the whole bundle, every other change in it too, and keeps the bundle it has [host-version-too-low]"#,
                #"routes.yaml:2:30: error: the route table hands URLs of scheme "flutter" that no route takes to a dispatcher, which app 6.0.0 (app-6.0.0.json) does not have, so there they open nothing and no fallback sees them — raise minimum_host_version above 6.0.0, or take "flutter" out of dispatchedSchemes [dispatcher-missing]"#,
                #"rules.lua:1:40: error: redirect from "myapp://feed" to "flutter://feed" leads to the flutter dispatcher, which app 6.0.0 (app-6.0.0.json) does not have, e.g. myapp://feed → flutter://feed — redirect to a URL that app opens, or only for versions after 6.0.0 (a when condition with version.compare); raising minimum_host_version above 6.0.0 would make app 6.0.0 (app-6.0.0.json) refuse the whole bundle, every other change in it too [redirect-to-missing-target]"#,
            ]),
        Case(
            name: "routes a rule answers, tasks and dispatched routes need no page",
            minimumHostVersion: "5.0.0",
            routes: """
                options: { dispatchedSchemes: [https] }
                routes:
                  - { name: experiment, pattern: "myapp://action/experiment/:name" }
                  - { name: poll, pattern: "myapp://action/poll" }
                  - { name: share, pattern: "myapp://action/share" }
                  - { name: help, pattern: "https://help.example.com/**", target: HelpPage }
                """,
            rules: """
                interceptor { name = "variant", route = "experiment", run = function(req, ctx)
                  return respond({ variant = "A" })
                end }
                interceptor { name = "actions", pattern = "myapp://action/poll", run = function(req, ctx)
                  return respond(true)
                end }
                interceptor { name = "audit", all = true, run = function(req, ctx) end }
                """,
            apps: [app("5.0.0", pages: ["HelpPage"], tasks: ["share"], dispatchers: ["https"])],
            expected: []),
        Case(
            name: "a route whose rule does not respond still needs its target",
            minimumHostVersion: "5.0.0",
            routes: """
                routes:
                  - { name: experiment, pattern: "myapp://action/experiment/:name" }
                """,
            rules: """
                interceptor { name = "variant", route = "experiment", run = function(req, ctx)
                  return reject("not yet")
                end }
                """,
            apps: [app("5.0.0")],
            expected: [
                #"manifest.yaml:3:1: error: minimum_host_version 5.0.0 lets app 5.0.0 (app-5.0.0.json) load this bundle, but that app has no page or task for target "experiment", so what the bundle leads there opens nothing — send version 5.0.0 and older elsewhere where the bundle leads them there (each finding at a route or redirect says how), or raise minimum_host_version above 5.0.0: then that app refuses the whole bundle, every other change in it too, and keeps the bundle it has [host-version-too-low]"#,
                #"routes.yaml:2:5: error: route "experiment" (myapp://action/experiment/:name) leads to target "experiment", which app 5.0.0 (app-5.0.0.json) has no page or task for, so there it opens nothing — send those versions elsewhere with an interceptor of the route (route = "experiment", run = function(req, ctx) if version.compare(ctx.app_version, "5.0.0") <= 0 then return redirect("https://…") end end), point the route at a target that app has, or remove it; raising minimum_host_version above 5.0.0 would make app 5.0.0 (app-5.0.0.json) refuse the whole bundle, every other change in it too [target-missing]"#,
            ]),
        Case(
            name: "the per-version rule the finding advises: the old versions go elsewhere, nothing is missing",
            minimumHostVersion: "5.0.0", routes: liveRoutes,
            rules: """
                interceptor { name = "live-on-old-apps", route = "live", run = function(req, ctx)
                  if ctx.app_version == nil or version.compare(ctx.app_version, "6.0.0") <= 0 then
                    return redirect("https://m.example.com/live/" .. req.params.room)
                  end
                end }
                """,
            apps: [
                app("6.0.0", pages: ["home"], dispatchers: ["https"]),
                app("6.1.0", pages: ["home", "LivePage"], dispatchers: ["https"]),
            ],
            expected: []),
    ]

    @Test func manyMissingTargetsAndAppsAreCountedNotListed() throws {
        // 2,000 routes to targets no app has, names far longer than a message shows, 40 apps.
        let long = String(repeating: "t", count: 5_000)
        let routes =
            "routes:\n"
            + (1...2_000).map { "  - { name: r\($0), pattern: \"myapp://r\($0)\", target: \(long)\($0) }" }.joined(
                separator: "\n")
        let bundle = try BundleCheckerTests.bundle(
            routes: routes, rules: "", manifest: "name: check-test\nversion: 1\nminimum_host_version: \"5.0\"\n")
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        let apps = (0..<40).map { Self.app("6.0.\($0)") }
        let findings = try BundleChecker(bundle: bundle).check(apps: apps)
        #expect(findings.count == 2_040)
        #expect(findings.allSatisfy { $0.message.count < 1_000 })
        let manifest = try #require(findings.first)
        #expect(
            BundleCheckerTests.render([manifest], in: bundle.directory) == [
                #"manifest.yaml:3:1: error: minimum_host_version 5.0.0 lets app 6.0.0 (app-6.0.0.json) load this bundle, but that app has no page or task for targets "\#(long.prefix(64))…", "\#(long.prefix(64))…", "\#(long.prefix(64))…", "\#(long.prefix(64))…", "\#(long.prefix(64))…" and 1995 more, so what the bundle leads there opens nothing — send version 6.0.0 and older elsewhere where the bundle leads them there (each finding at a route or redirect says how), or raise minimum_host_version above 6.0.0: then that app refuses the whole bundle, every other change in it too, and keeps the bundle it has [host-version-too-low]"#
            ])
        let route = try #require(findings.first { $0.code == .targetMissing })
        let named =
            "apps 6.0.0 (app-6.0.0.json), 6.0.1 (app-6.0.1.json), 6.0.2 (app-6.0.2.json), 6.0.3 (app-6.0.3.json), "
            + "6.0.4 (app-6.0.4.json) and 35 more"
        let rule =
            #"(route = "r1", run = function(req, ctx) if version.compare(ctx.app_version, "6.0.39") <= 0 then "#
            + #"return redirect("https://…") end end)"#
        let expected =
            "which \(named) have no page or task for, so there it opens nothing — send those versions elsewhere with "
            + "an interceptor of the route \(rule), point the route at a target those apps have, or remove it; "
            + "raising minimum_host_version above 6.0.39 would make \(named) refuse the whole bundle, every other "
            + "change in it too"
        #expect(route.message.hasSuffix(expected))
    }

    static let codes: Set<Finding.Code> = [
        .targetMissing, .dispatcherMissing, .redirectToMissingTarget, .hostVersionTooLow,
    ]

    @Test(arguments: cases)
    func findsWhatAnAppThatLoadsTheBundleCannotOpen(_ testCase: Case) throws {
        let bundle = try BundleCheckerTests.bundle(
            routes: testCase.routes, rules: testCase.rules,
            manifest: "name: check-test\nversion: 1\n"
                + (testCase.minimumHostVersion.map { "minimum_host_version: \"\($0)\"\n" } ?? ""))
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        let checker = try BundleChecker(bundle: bundle)
        let findings = checker.check(apps: testCase.apps)
        #expect(
            BundleCheckerTests.render(findings.filter { Self.codes.contains($0.code) }, in: bundle.directory)
                == testCase.expected)
        // Without apps, none of these; with them, every other finding is as before.
        #expect(checker.check().filter { Self.codes.contains($0.code) }.isEmpty)
        #expect(findings.filter { !Self.codes.contains($0.code) } == checker.check())
    }
}
