import Foundation
import Junction
import JunctionTooling
import Testing

/// `junction check` follows the redirects rules return with a literal target as it
/// follows declared ones: a cycle through two rules, or a rule and a declared redirect,
/// is a warning; a redirect from a route outside links may open to one they may not (the
/// 403 of tonight's checkout rollout) is a warning naming both ends.
@Suite struct RuleRedirectChecksTests {
    static let routes = """
        routes:
          - { name: old, pattern: "myapp://old", exported: true }
          - { name: new, pattern: "myapp://new", exported: true }
          - { name: mid, pattern: "myapp://mid" }
          - { name: hidden, pattern: "myapp://hidden" }
          - { name: shown, pattern: "myapp://shown", exported: true }
        """

    static let cycles: [(name: String, rules: String, expected: [String])] = [
        (
            "two rules that redirect to each other's route",
            """
            interceptor { name = "a", route = "old", run = function(req, ctx)
              return redirect("myapp://new")
            end }
            interceptor { name = "b", route = "new", run = function(req, ctx)
              if ctx.back then return redirect("myapp://old") end
            end }
            """,
            [
                #"rules.lua:2:19: warning: possible redirect cycle through rules: interceptor "a" (rules.lua:2) redirects to myapp://new (route "new"), then interceptor "b" (rules.lua:5) redirects to myapp://old (route "old"), which the first runs for again: when each of them redirects, the request is refused as a redirect loop — make one of them test what the redirect changes (req.route.name, a query parameter), or change a target [redirect-cycle]"#
            ]
        ),
        (
            "a rule whose target a declared redirect takes back",
            """
            redirect { from = "myapp://shown", to = "myapp://old" }
            group("vip", function(req, ctx)
              return redirect("myapp://shown")
            end)
            """,
            [
                #"rules.lua:3:19: warning: possible redirect cycle through rules: group("vip") (rules.lua:3) redirects to myapp://shown (which declared redirects take on to myapp://old, route "old"), which it runs for again: when it redirects there too, the request is refused as a redirect loop — make it test what the redirect changes (req.route.name, a query parameter), or change the target [redirect-cycle]"#
            ]
        ),
        (
            "a rule to its own route, and a chain that ends, give nothing",
            """
            interceptor { name = "a", route = "old", run = function(req, ctx)
              if req.query.v == nil then return redirect("myapp://old?v=1") end
              return redirect("myapp://new")
            end }
            interceptor { name = "b", route = "new", run = function(req, ctx)
              return redirect("myapp://shown")
            end }
            """,
            []
        ),
    ]

    @Test(arguments: cycles)
    func findsCyclesThroughRules(name: String, rules: String, expected: [String]) throws {
        let routes =
            name.contains("declared")
            ? Self.routes.replacingOccurrences(of: "name: old,", with: "name: old, groups: [vip],") : Self.routes
        let bundle = try BundleCheckerTests.bundle(routes: routes, rules: rules)
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        let findings = try BundleChecker(bundle: bundle).check().filter { $0.code.rawValue == "redirect-cycle" }
        #expect(BundleCheckerTests.render(findings, in: bundle.directory) == expected, "\(name)")
    }

    static let unexported: [(name: String, rules: String, expected: [String])] = [
        (
            "a rule from an exported route to one that is not",
            """
            interceptor { name = "rollout", route = "old", run = function(req, ctx)
              if ctx.lucky then return redirect("myapp://hidden") end
            end }
            """,
            [
                #"rules.lua:2:37: warning: interceptor "rollout" redirects exported route "old" to myapp://hidden, whose route "hidden" is not exported: links from outside the app (push, h5, universal_link, external) that it redirects are refused (not_exported, 403) — export "hidden" (exported: true in the route table), or redirect internal requests only (req.source == "internal") [redirect-to-unexported]"#
            ]
        ),
        (
            "a declared redirect from an exported route's URLs",
            """
            redirect { from = "myapp://new", to = "myapp://hidden" }
            """,
            [
                #"rules.lua:1:39: warning: redirect from "myapp://new" sends myapp://new, which exported route "new" opens, to myapp://hidden, whose route "hidden" is not exported: links from outside the app (push, h5, universal_link, external) that it redirects are refused (not_exported, 403) — export "hidden" (exported: true in the route table), or redirect internal requests only (req.source == "internal") [redirect-to-unexported]"#
            ]
        ),
        (
            "from a route that is not exported, or to one that is, gives nothing",
            """
            redirect { from = "myapp://old", to = "myapp://shown" }
            redirect { from = "myapp://promo/:id", to = "myapp://hidden" }
            interceptor { name = "inside", route = "mid", run = function(req, ctx)
              return redirect("myapp://hidden")
            end }
            """,
            []
        ),
    ]

    @Test(arguments: unexported)
    func findsRedirectsToRoutesNotExported(name: String, rules: String, expected: [String]) throws {
        let bundle = try BundleCheckerTests.bundle(routes: Self.routes, rules: rules)
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        let findings = try BundleChecker(bundle: bundle).check().filter {
            $0.code.rawValue == "redirect-to-unexported"
        }
        #expect(BundleCheckerTests.render(findings, in: bundle.directory) == expected, "\(name)")
    }
}
