import Foundation
import Junction
import JunctionTooling
import JunctionAuthoring
import Testing

/// Static findings, as a table: a small bundle in, its findings out as
/// `FILE:LINE:COL: severity: message [code]` with files relative to the bundle.
@Suite struct BundleCheckerTests {
    /// One bundle and every finding expected of it, in order.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var routes: String
        var rules: String
        var expected: [String]

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a clean bundle has no findings",
            routes: """
                options: { dispatchedSchemes: [https] }
                routes:
                  - { name: home, pattern: "myapp://home" }
                  - { name: user.profile, pattern: "myapp://user/:id", params: { id: int }, groups: [login] }
                  - { name: user.byName, pattern: "myapp://user/:name" }
                  - { name: user.settings, pattern: "myapp://user/settings(/:section)" }
                  - { name: order, pattern: "myapp://order/:no([A-Z]{2}[0-9]{6})" }
                  - { name: live.room, pattern: "myapp://live/:room" }
                  - { name: live.web, pattern: "myapp://live/**" }
                  - { name: files, pattern: "/files/**" }
                """,
            rules: """
                redirect { from = "myapp://feed/:id", to = "myapp://user/{id}" }
                redirect { from = "myapp://old/order/:n", to = "myapp://order/{n}" }
                redirect { from = "myapp://h5/:page", to = "https://m.example.com/{page}" }
                redirect { from = "myapp://legacy", to = "myapp://feed/7" }
                group("login", function(req, ctx) end)
                interceptor { name = "by-name", route = "user.profile", run = function() end }
                interceptor { name = "by-names", routes = { "live.room", "live.web" }, run = function() end }
                interceptor { name = "by-pattern", patterns = { "myapp://live/**", "myapp://order/:no" }, run = function() end }
                """,
            expected: []),
        Case(
            name: "a redirect cycle is an error naming the chain",
            routes: "routes:\n  - { name: home, pattern: \"myapp://home\" }\n",
            rules: """
                redirect { from = "myapp://a", to = "myapp://b" }
                redirect { from = "myapp://b/**", to = "myapp://a" }
                """,
            expected: [
                #"rules.lua:1:37: error: redirect cycle: "myapp://a" (rules.lua:1) → "myapp://b/**" (rules.lua:2) → "myapp://a"; myapp://a → myapp://b → myapp://a is refused as a redirect loop — change a target or remove one of the redirects [redirect-cycle]"#
            ]),
        Case(
            name: "a cycle through a when condition is a warning naming the condition",
            routes: "routes:\n  - { name: home, pattern: \"myapp://home\" }\n",
            rules: """
                redirect { from = "myapp://c1", to = "myapp://c2" }
                redirect { from = "myapp://c2", to = "myapp://home", when = function(req, ctx) return ctx.new end }
                redirect { from = "myapp://c2", to = "myapp://c1" }
                """,
            expected: [
                #"rules.lua:1:38: warning: possible redirect cycle: "myapp://c1" (rules.lua:1) → "myapp://c2" (rules.lua:3) → "myapp://c1"; myapp://c1 → myapp://c2 → myapp://c1 is refused as a redirect loop — change a target or remove one of the redirects (it depends on the when conditions at rules.lua:2) [redirect-cycle]"#
            ]),
        Case(
            name: "a redirect that feeds itself new URLs is a chain without end",
            routes: "routes:\n  - { name: home, pattern: \"myapp://home\" }\n",
            rules: #"redirect { from = "myapp://grow/:x", to = "myapp://grow/{x}x" }"#,
            expected: [
                #"rules.lua:1:43: error: redirect chain without end: "myapp://grow/:x" (rules.lua:1) → "myapp://grow/:x"; each pass leads to a new URL (myapp://grow/x7q → myapp://grow/x7qx → …), so requests are refused after 8 redirects — change a target or remove one of the redirects [redirect-cycle]"#
            ]),
        Case(
            name: "a redirect to a URL nothing handles is a warning; the fallback is mentioned",
            routes: """
                options: { dispatchedSchemes: [https] }
                routes:
                  - { name: moments, pattern: "myapp://moments/:id", params: { id: int } }
                """,
            rules: """
                redirect { from = "myapp://old/:id", to = "myapp://gone/{id}" }
                redirect { from = "myapp://feed/:id", to = "myapp://moments/{id}" }
                redirect { from = "myapp://web/:page", to = "https://m.example.com/{page}" }
                redirect { from = "myapp://hop", to = "myapp://feed/3" }
                fallback(function(req, ctx) end)
                """,
            expected: [
                #"rules.lua:1:43: warning: redirect from "myapp://old/:id" to "myapp://gone/{id}" leads nowhere: no route matches myapp://gone/x7q, "myapp" is not a dispatched scheme and no redirect takes it further; only the fallback rules can handle it — fix the target or add a route for it [redirect-to-nothing]"#
            ]),
        Case(
            name: "a route behind a higher-priority wildcard is unreachable",
            routes: """
                routes:
                  - { name: promo, pattern: "myapp://promo/*", priority: 5 }
                  - { name: promo.page, pattern: "myapp://promo/:page" }
                """,
            rules: "",
            expected: [
                #"routes.yaml:3:5: warning: route "promo.page" (myapp://promo/:page) is never reached: "promo" (myapp://promo/*) takes precedence for every URL it matches, e.g. myapp://promo/x7q; raise its priority, make its pattern more specific or remove it [unreachable-route]"#
            ]),
        Case(
            name: "a higher-priority catch-all takes every URL of its scheme",
            routes: """
                routes:
                  - { name: tag, pattern: "myapp://t/:a([a-z]+)" }
                  - { name: tag.again, pattern: "myapp://t/:b([a-z]{1,})" }
                  - { name: catch, pattern: "myapp://**", priority: 2 }
                  - { name: home, pattern: "myapp://home" }
                """,
            rules: "",
            expected: [
                #"routes.yaml:2:5: warning: route "tag" (myapp://t/:a([a-z]+)) is never reached: "catch" (myapp://**) takes precedence for every URL it matches, e.g. myapp://t/a; raise its priority, make its pattern more specific or remove it [unreachable-route]"#,
                #"routes.yaml:3:5: warning: route "tag.again" (myapp://t/:b([a-z]{1,})) is never reached: "catch" (myapp://**) takes precedence for every URL it matches, e.g. myapp://t/a; raise its priority, make its pattern more specific or remove it [unreachable-route]"#,
                #"routes.yaml:5:5: warning: route "home" (myapp://home) is never reached: "catch" (myapp://**) takes precedence for every URL it matches, e.g. myapp://home; raise its priority, make its pattern more specific or remove it [unreachable-route]"#,
            ]),
        Case(
            name: "an equally specific route registered later is unreachable",
            routes: """
                routes:
                  - { name: tag, pattern: "myapp://t/:a([a-z]+)" }
                  - { name: tag.again, pattern: "myapp://t/:b([a-z]{1,})" }
                """,
            rules: "",
            expected: [
                #"routes.yaml:3:5: warning: route "tag.again" (myapp://t/:b([a-z]{1,})) is never reached: "tag" (myapp://t/:a([a-z]+)) takes precedence for every URL it matches, e.g. myapp://t/a; raise its priority, make its pattern more specific or remove it [unreachable-route]"#
            ]),
        Case(
            name: "a route whose regex cannot be sampled is skipped, not reported",
            routes: """
                routes:
                  - { name: shadow, pattern: "myapp://w/:y", priority: 9 }
                  - { name: odd, pattern: 'myapp://w/:x(\\x61bc)' }
                """,
            rules: "",
            expected: []),
        Case(
            name: "a group near a policy's name is an error; other groups and policies alone are warnings",
            routes: """
                routes:
                  - { name: live, pattern: "myapp://live/:room", groups: [anti-addiction, social] }
                  - { name: video, pattern: "myapp://video", groups: [social] }
                """,
            rules: """
                group("anti_addiction", function(req, ctx) end)
                group("legacy", function(req, ctx) end)
                """,
            expected: [
                #"routes.yaml:2:5: error: group "anti-addiction" of route "live" has no policy, but the near name "anti_addiction" has one: the route is open where routes of "anti_addiction" are guarded — if "anti_addiction" was meant, fix the spelling in the route table; if this is on purpose, accept it in manifest.yaml — allow: [{ code: group-near-policy, at: "anti-addiction", reason: … }] [group-near-policy]"#,
                #"routes.yaml:2:5: warning: group "social" of routes "live" and "video" has no group() policy in the bundle, so the bundle guards nothing there (a Swift interceptor the app registers for the group cannot be seen by this check) — add group("social", function(req, ctx) ... end) to a file of the bundle, or remove the group from the routes [group-without-policy]"#,
                #"rules.lua:1:7: warning: group("anti_addiction") is a policy for a group no route lists; add "anti_addiction" to the groups of its routes in the route table, or remove the policy; did you mean "anti-addiction"? [unused-group-policy]"#,
                #"rules.lua:2:7: warning: group("legacy") is a policy for a group no route lists; add "legacy" to the groups of its routes in the route table, or remove the policy [unused-group-policy]"#,
            ]),
        Case(
            name: "an interceptor pattern that matches no route's URLs is a warning",
            routes: """
                routes:
                  - { name: order, pattern: "myapp://order/:no" }
                  - { name: item, pattern: "myapp://item/:code(\\\\d+)" }
                """,
            rules: """
                interceptor { name = "audit", patterns = { "myapp://order/**", "myapp://orders/**" }, run = function() end }
                interceptor { name = "codes", pattern = "myapp://order/:no([A-Z]{3})", run = function() end }
                interceptor { name = "items", pattern = "myapp://item/:x([a-z]+)", run = function() end }
                """,
            expected: [
                #"rules.lua:1:64: warning: interceptor "audit" applies to no route: pattern "myapp://orders/**" matches no route's URLs; fix the pattern, or name the routes it is for with route = or routes = [interceptor-matches-nothing]"#,
                #"rules.lua:3:41: warning: interceptor "items" applies to no route: pattern "myapp://item/:x([a-z]+)" matches no route's URLs; fix the pattern, or name the routes it is for with route = or routes = [interceptor-matches-nothing]"#,
            ]),
        Case(
            name: "an interceptor pattern that covers only part of a route is a warning naming both URLs",
            routes: """
                routes:
                  - { name: wallet, pattern: "myapp://wallet/**" }
                  - { name: user, pattern: "myapp://user/:id", params: { id: int } }
                  - { name: user.name, pattern: "myapp://user/:name" }
                """,
            rules: """
                interceptor { name = "wallet-guard", pattern = "myapp://wallet", run = function() end }
                interceptor { name = "whole", pattern = "myapp://wallet/**", run = function() end }
                interceptor {
                  name = "users",
                  pattern = "myapp://user/:id(\\\\d+)",
                  run = function() end }
                """,
            expected: [
                #"rules.lua:1:48: warning: interceptor "wallet-guard": pattern "myapp://wallet" covers only some URLs of route "wallet" (myapp://wallet/**): it applies to myapp://wallet but not to myapp://wallet/x7q; to guard the whole route write route = "wallet", or widen the pattern [interceptor-pattern-partial]"#,
                #"rules.lua:5:13: warning: interceptor "users": pattern "myapp://user/:id(\d+)" covers only some URLs of route "user" (myapp://user/:id): it applies to myapp://user/7 but not to myapp://user/-12; to guard the whole route write route = "user", or widen the pattern [interceptor-pattern-partial]"#,
            ]),
        Case(
            name: "a redirect that takes a route's URLs out of its group policies is a warning naming them",
            routes: """
                options: { dispatchedSchemes: [https] }
                routes:
                  - { name: live.room, pattern: "myapp://live/:id", groups: [anti_addiction, login] }
                  - { name: live.lite, pattern: "myapp://lite/:id", groups: [login] }
                  - { name: video, pattern: "myapp://video/:id", groups: [anti_addiction] }
                  - { name: clip, pattern: "myapp://clip/:id", groups: [anti_addiction, cosmetic] }
                  - { name: show, pattern: "myapp://show/:id", groups: [anti_addiction] }
                  - { name: show.v2, pattern: "myapp://show2/:id", groups: [login, anti_addiction] }
                """,
            rules: """
                group("anti_addiction", function() end)
                group("login", function() end)
                redirect { from = "myapp://live/:id", to = "https://m.example.com/live/{id}" }
                redirect { from = "myapp://video/:id", to = "myapp://lite/{id}" }
                redirect { from = "myapp://clip/:id", to = "myapp://video/{id}" }
                redirect { from = "myapp://show/:id", to = "myapp://show2/{id}" }
                """,
            expected: [
                #"routes.yaml:6:5: warning: group "cosmetic" of route "clip" has no group() policy in the bundle, so the bundle guards nothing there (a Swift interceptor the app registers for the group cannot be seen by this check) — add group("cosmetic", function(req, ctx) ... end) to a file of the bundle, or remove the group from the route [group-without-policy]"#,
                #"rules.lua:3:44: error: redirect from "myapp://live/:id" to "https://m.example.com/live/{id}" takes requests out of the group policies "anti_addiction" and "login" of route "live.room": myapp://live/x7q is redirected before any policy runs to https://m.example.com/live/x7q, which the https dispatcher opens, where no policy runs; to keep them, redirect from an interceptor of "live.room" (it runs after the group policies); if this is on purpose, accept it in manifest.yaml — allow: [{ code: redirect-leaves-policies, at: "myapp://live/:id", reason: … }] [redirect-leaves-policies]"#,
                #"rules.lua:4:45: error: redirect from "myapp://video/:id" to "myapp://lite/{id}" takes requests out of the group policy "anti_addiction" of route "video": myapp://video/x7q is redirected before any policy runs to myapp://lite/x7q, whose route "live.lite" is not in "anti_addiction"; to keep it, redirect from an interceptor of "video" (it runs after the group policies), or add the route "live.lite" to that group; if this is on purpose, accept it in manifest.yaml — allow: [{ code: redirect-leaves-policies, at: "myapp://video/:id", reason: … }] [redirect-leaves-policies]"#,
                #"rules.lua:5:44: error: redirect from "myapp://clip/:id" to "myapp://video/{id}" takes requests out of the group policy "anti_addiction" of route "clip": myapp://clip/x7q is redirected before any policy runs (through myapp://video/x7q) to myapp://lite/x7q, whose route "live.lite" is not in "anti_addiction"; to keep it, redirect from an interceptor of "clip" (it runs after the group policies), or add the route "live.lite" to that group; if this is on purpose, accept it in manifest.yaml — allow: [{ code: redirect-leaves-policies, at: "myapp://clip/:id", reason: … }] [redirect-leaves-policies]"#,
            ]),
        Case(
            name: "a kill switch in a global interceptor takes every route out of its group policies",
            routes: """
                options: { dispatchedSchemes: [https] }
                routes:
                  - { name: live.room, pattern: "myapp://live/:id", groups: [anti_addiction] }
                  - { name: home, pattern: "myapp://home" }
                """,
            rules: """
                group("anti_addiction", function() end)
                interceptor { name = "kill-switch", all = true, run = function(req, ctx)
                  if ctx.hour >= 23 then return redirect("https://m.example.com/live") end
                end }
                """,
            expected: [
                #"rules.lua:3:42: error: interceptor "kill-switch" runs before the group policies of every route and returns redirect("https://m.example.com/live"), which the https dispatcher opens, where no policy runs: route "live.room" loses the group policy of "anti_addiction" — to keep it, return the redirect from an interceptor of the route (route = "live.room"), which runs after the group policies; if this is on purpose, accept it in manifest.yaml — allow: [{ code: redirect-leaves-policies, at: "kill-switch", reason: … }] [redirect-leaves-policies]"#
            ]),
        Case(
            name: "the same kill switch in an interceptor of the route runs after its policies",
            routes: """
                options: { dispatchedSchemes: [https] }
                routes:
                  - { name: live.room, pattern: "myapp://live/:id", groups: [anti_addiction] }
                """,
            rules: """
                group("anti_addiction", function() end)
                interceptor { name = "kill-switch", route = "live.room", run = function(req, ctx)
                  if ctx.hour >= 23 then return redirect("https://m.example.com/live") end
                end }
                interceptor { name = "by-pattern", pattern = "myapp://live/:id", run = function(req, ctx)
                  return redirect("https://m.example.com/live")
                end }
                """,
            expected: []),
        Case(
            name: "a group policy's redirect drops the policies of the groups listed after its own",
            routes: """
                routes:
                  - { name: live.room, pattern: "myapp://live/:id", groups: [login, anti_addiction] }
                  - { name: video, pattern: "myapp://video/:id", groups: [anti_addiction, login] }
                  - { name: login.page, pattern: "myapp://login" }
                """,
            rules: """
                group("anti_addiction", function() end)
                group("login", function(req, ctx)
                  if ctx.user == nil then return redirect("myapp://login") end
                end)
                """,
            expected: [
                #"rules.lua:3:43: error: group("login") runs before the policies of the groups a route lists after it and returns redirect("myapp://login"), whose route "login.page" is not in "anti_addiction": route "live.room" lists "anti_addiction" after "login", so that policy does not run — to keep it, return the redirect from an interceptor of the route (route = "live.room"), which runs after the group policies, list "login" after "anti_addiction" in its groups, or add the route "login.page" to that group; if this is on purpose, accept it in manifest.yaml — allow: [{ code: redirect-leaves-policies, at: "login", reason: … }] [redirect-leaves-policies]"#
            ]),
        Case(
            name: "a returned redirect to a route in the same groups keeps their policies",
            routes: """
                options: { dispatchedSchemes: [https] }
                routes:
                  - { name: live.room, pattern: "myapp://live/:id", groups: [login, anti_addiction] }
                  - { name: live.web, pattern: "myapp://live-web/:id", groups: [login, anti_addiction] }
                  - { name: live.lite, pattern: "myapp://lite/:id", groups: [anti_addiction] }
                """,
            rules: """
                group("anti_addiction", function() end)
                group("login", function() return redirect("myapp://lite/1") end)
                interceptor { name = "to-web", all = true, run = function(req, ctx)
                  if ctx.web then return redirect("myapp://live-web/1") end
                end }
                """,
            expected: [
                // Not a finding of policies, but a real loop: login sends live.web to the
                // lite room, and to-web sends it back.
                #"rules.lua:2:43: warning: possible redirect cycle through rules: group("login") (rules.lua:2) redirects to myapp://lite/1 (route "live.lite"), then interceptor "to-web" (rules.lua:4) redirects to myapp://live-web/1 (route "live.web"), which the first runs for again: when each of them redirects, the request is refused as a redirect loop — make one of them test what the redirect changes (req.route.name, a query parameter), or change a target [redirect-cycle]"#
            ]),
        Case(
            name: "a target built at run time or returned by a fallback is not judged",
            routes: """
                options: { dispatchedSchemes: [https] }
                routes:
                  - { name: live.room, pattern: "myapp://live/:id", groups: [anti_addiction] }
                """,
            rules: """
                group("anti_addiction", function() end)
                interceptor { name = "built", all = true, run = function(req, ctx)
                  if ctx.hour >= 23 then return redirect("https://m.example.com/" .. req.path) end
                end }
                fallback(function(req, ctx) return redirect("https://m.example.com/missing") end)
                """,
            expected: []),
        Case(
            name:
                "a returned redirect names up to three routes and groups, counts the rest, and follows declared redirects",
            routes: """
                routes:
                  - { name: r1, pattern: "myapp://r1", groups: [g1, g2] }
                  - { name: r2, pattern: "myapp://r2", groups: [g3] }
                  - { name: r3, pattern: "myapp://r3", groups: [g4] }
                  - { name: r4, pattern: "myapp://r4", groups: [g1] }
                  - { name: r5, pattern: "myapp://r5", groups: [g2, g5] }
                  - { name: new.home, pattern: "myapp://new-home", groups: [g5] }
                """,
            rules: """
                for _, g in ipairs({ "g1", "g2", "g3", "g4", "g5" }) do group(g, function() end) end
                redirect { from = "myapp://old-home", to = "myapp://new-home" }
                interceptor { name = "maintenance", all = true, run = function(req, ctx)
                  if ctx.maintenance then return redirect("myapp://old-home") end
                end }
                """,
            expected: [
                #"rules.lua:4:43: error: interceptor "maintenance" runs before the group policies of every route and returns redirect("myapp://old-home"), which declared redirects take on to myapp://new-home, whose route "new.home" is not in "g1", "g2", "g3" and 1 more group: routes "r1", "r2", "r3" and 2 more routes lose the group policies of "g1", "g2", "g3" and 1 more group — to keep them, return the redirect from interceptors of those routes (routes = { "r1", "r2", "r3", … }), which run after the group policies, or add the route "new.home" to those groups; if this is on purpose, accept it in manifest.yaml — allow: [{ code: redirect-leaves-policies, at: "maintenance", reason: … }] [redirect-leaves-policies]"#,
                #"rules.lua:4:43: warning: possible redirect cycle through rules: interceptor "maintenance" (rules.lua:4) redirects to myapp://old-home (which declared redirects take on to myapp://new-home, route "new.home"), which it runs for again: when it redirects there too, the request is refused as a redirect loop — make it test what the redirect changes (req.route.name, a query parameter), or change the target [redirect-cycle]"#,
            ]),
    ]

    /// Findings read from the code: the routes are one route, the manifest declares
    /// `sources: [mini_program]`.
    static let codeCases: [(name: String, rules: String, expected: [String])] = [
        (
            "a misspelt global, library field and withheld library are errors with the nearest name",
            """
            interceptor { name = "beta", all = true, run = function(req, ctx)
              if rolout("beta", ctx.user_id, 10) then return redirect(url.encdoe(req.url)) end
              local started = os.time()
              return gate(strng.format("myapp://%s", "login"))
            end }
            """,
            [
                #"rules.lua:2:6: error: global "rolout" is not defined: neither the sandbox nor the bundle's files define it, so it is nil here; did you mean "rollout"? — fix the name, or define it at the top level of one of the bundle's files [undefined-global]"#,
                #"rules.lua:2:63: error: "url.encdoe" is not defined: the sandbox's url library has no field "encdoe"; did you mean "url.encode"? — fix the name [undefined-global]"#,
                #"rules.lua:3:19: error: "os" is not available to rules: the sandbox leaves out collectgarbage, coroutine, debug, dofile, io, loadfile, os, package, require and warn — remove this use (docs/rules.md, "What a rule cannot do") [undefined-global]"#,
                #"rules.lua:4:15: error: global "strng" is not defined: neither the sandbox nor the bundle's files define it, so it is nil here; did you mean "string"? — fix the name, or define it at the top level of one of the bundle's files [undefined-global]"#,
            ]
        ),
        (
            "the column is the name's in code, not in a string or a comment before it, counted in characters",
            #"""
            local doc = [==[
              rolout in a long string ]] still inside
            ]==]
            -- rolout in a comment
            function f(req) local s = "rolout é \" rolout" --[[ rolout ]] return rolout(req), url.encdoe end
            function g(req) local t = 'pusj' .. "\\" return t, req.source == "\x70u\z
              sj" end
            """#,
            [
                #"rules.lua:5:70: error: global "rolout" is not defined: neither the sandbox nor the bundle's files define it, so it is nil here; did you mean "rollout"? — fix the name, or define it at the top level of one of the bundle's files [undefined-global]"#,
                #"rules.lua:5:87: error: "url.encdoe" is not defined: the sandbox's url library has no field "encdoe"; did you mean "url.encode"? — fix the name [undefined-global]"#,
                #"rules.lua:6:66: error: req.source is compared with "pusj", which is not a request source of this bundle (internal, push, universal_link, h5, external, mini_program), so no request has it; did you mean "push"? — fix the spelling, or declare the source in the manifest's sources: list [unknown-source]"#,
            ]
        ),
        (
            "the sandbox's and the bundle's own names, locals, parameters and upvalues are not reported",
            """
            local blocked = { ["/admin"] = true }
            ALLOWED_HOSTS = { "m.example.com" }
            local function host_allowed(host) for _, h in ipairs(ALLOWED_HOSTS) do if h == host then return true end end end
            interceptor { name = "guard", all = true, run = function(req, ctx)
              if blocked[req.path] or not host_allowed(req.host) then return reject("blocked", 403) end
              if req.source == "push" or req.source == "mini_program" then return next() end
              return is_allowed(req) and nil or rewrite { params = { at = string.format("%d", 1) } }
            end }
            function is_allowed(req) return version.compare("1.0.0", "2.0.0") < 0 end
            """,
            []
        ),
        (
            "a rule that assigns a global is an error where it assigns",
            """
            group("login", function(req, ctx)
              verdict = ctx.user == nil and gate("myapp://login") or nil
              return verdict
            end)
            """,
            [
                #"rules.lua:2:3: error: this function assigns the global "verdict", but globals are read-only once the bundle has loaded, so this fails whenever it runs — make it a local (local verdict = …), or define the global at the top level of the file [global-assignment]"#
            ]
        ),
        (
            "req.source compared with a source the bundle does not know is an error with the nearest one",
            """
            interceptor { name = "push-only", all = true, run = function(req, ctx)
              if req.source == "pusj" then return reject("no") end
              local source = req.source
              if source ~= "mini_progam" and source ~= "h5" then return nil end
            end }
            """,
            [
                #"rules.lua:2:20: error: req.source is compared with "pusj", which is not a request source of this bundle (internal, push, universal_link, h5, external, mini_program), so no request has it; did you mean "push"? — fix the spelling, or declare the source in the manifest's sources: list [unknown-source]"#,
                #"rules.lua:4:16: error: req.source is compared with "mini_progam", which is not a request source of this bundle (internal, push, universal_link, h5, external, mini_program), so no request has it; did you mean "mini_program"? — fix the spelling, or declare the source in the manifest's sources: list [unknown-source]"#,
            ]
        ),
    ]

    @Test(arguments: codeCases)
    func findsMistakesInTheCode(name: String, rules: String, expected: [String]) throws {
        let bundle = try Self.bundle(
            routes: "routes:\n  - { name: home, pattern: \"myapp://home\", groups: [login] }\n", rules: rules,
            manifest: "name: check-test\nversion: 1\nsources: [mini_program]\n")
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        let findings = try BundleChecker(bundle: bundle).check().filter { $0.code != .groupWithoutPolicy }
        #expect(Self.render(findings, in: bundle.directory) == expected)
    }

    @Test(arguments: [
        ("logni", "login"), ("login", "logni"), ("anti_addiction", "Anti-Addiction"), ("vip", "vips"),
    ])
    func aGroupNearAPolicysNameIsAnErrorAndThePolicyNamesIt(group: String, policy: String) throws {
        let bundle = try Self.bundle(
            routes: "routes:\n  - { name: orders, pattern: \"myapp://orders\", groups: [\(group)] }\n",
            rules: "group(\"\(policy)\", function(req, ctx) end)")
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        #expect(
            Self.render(try BundleChecker(bundle: bundle).check(), in: bundle.directory) == [
                #"routes.yaml:2:5: error: group "\#(group)" of route "orders" has no policy, but the near name "\#(policy)" has one: the route is open where routes of "\#(policy)" are guarded — if "\#(policy)" was meant, fix the spelling in the route table; if this is on purpose, accept it in manifest.yaml — allow: [{ code: group-near-policy, at: "\#(group)", reason: … }] [group-near-policy]"#,
                #"rules.lua:1:7: warning: group("\#(policy)") is a policy for a group no route lists; add "\#(policy)" to the groups of its routes in the route table, or remove the policy; did you mean "\#(group)"? [unused-group-policy]"#,
            ])
    }

    /// `logni` beside a `login` policy in use leaves the cart open: an error `bundle build`
    /// refuses. A `vip` group beside `vips` that is meant is accepted in the manifest's
    /// `allow:`, with its reason, and `check` lists it.
    static let nearGroupRoutes = """
        routes:
          - { name: a, pattern: "myapp://a", groups: [vip] }
          - { name: b, pattern: "myapp://b", groups: [vips] }
        """

    @Test func aGroupNearAnotherGroupsPolicyInUseIsAnError() throws {
        let bundle = try Self.bundle(
            routes: Self.nearGroupRoutes,
            rules: "group(\"vips\", function(req, ctx) end)\ngroup(\"payments\", function(req, ctx) end)")
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        #expect(
            Self.render(try BundleChecker(bundle: bundle).check(), in: bundle.directory) == [
                #"routes.yaml:2:5: error: group "vip" of route "a" has no policy, but the near name "vips" has one: the route is open where routes of "vips" are guarded — if "vips" was meant, fix the spelling in the route table; if this is on purpose, accept it in manifest.yaml — allow: [{ code: group-near-policy, at: "vip", reason: … }] [group-near-policy]"#,
                #"rules.lua:2:7: warning: group("payments") is a policy for a group no route lists; add "payments" to the groups of its routes in the route table, or remove the policy [unused-group-policy]"#,
            ])
    }

    @Test func anAllowanceAcceptsTheFindingItNamesAndOnlyThatOne() throws {
        let bundle = try Self.bundle(
            routes: Self.nearGroupRoutes, rules: "group(\"vips\", function(req, ctx) end)",
            manifest: """
                name: check-test
                version: 1
                allow:
                  - code: group-near-policy
                    at: vip
                    reason: vip is the free tier, open to all; vips is paid
                  - code: group-near-policy
                    at: vipp
                    reason: a stale entry
                  - code: undefined-global
                    at: rolout
                    reason: not a policy finding
                """)
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        let review = try BundleChecker(bundle: bundle).review()
        #expect(
            review.accepted.map { "\($0.finding.code) \($0.finding.subject ?? "") \($0.allowance.reason)" } == [
                "group-near-policy vip vip is the free tier, open to all; vips is paid"
            ])
        #expect(
            Self.render(review.findings, in: bundle.directory) == [
                #"manifest.yaml:7:5: warning: allow accepts group-near-policy at "vipp", but check finds no such finding: remove the entry, or fix what it names (a declared redirect's from, an interceptor's or a group's name) — a stale allowance would accept a later mistake unseen [unused-allowance]"#,
                #"manifest.yaml:10:5: error: allow names "undefined-global", which no allowance can accept: only findings that weaken a policy can be (group-near-policy, redirect-leaves-policies) — fix what the finding says instead [bad-allowance]"#,
            ])
    }

    @Test func aFileFullOfMistakesListsTwentyAndCountsTheRest() throws {
        // 5,000 calls of undefined functions, and a name far longer than any message shows.
        let long = String(repeating: "x", count: 5_000)
        let rules =
            "function many()\n  local v = \(long)\n" + (1...5_000).map { "  undefined_\($0)()" }.joined(separator: "\n")
            + "\nend\n"
        let bundle = try Self.bundle(routes: "routes:\n  - { name: home, pattern: \"myapp://home\" }\n", rules: rules)
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        let findings = try BundleChecker(bundle: bundle).check()
        #expect(findings.count == 21)
        #expect(findings.first?.location?.line == 2)
        #expect(findings.allSatisfy { $0.code == .undefinedGlobal && $0.message.count < 400 })
        #expect(findings.first?.message.hasPrefix("global \"\(long.prefix(64))…\" is not defined") == true)
        #expect(
            findings.last?.description
                == "\(bundle.directory)/rules.lua:22:3: error: 4981 more uses of undefined globals in this file are not listed — fix the ones above, then check again [undefined-global]"
        )
    }

    @Test func manyReturnedRedirectsListTwentyAndCountTheRestNamingThreeRoutesEach() throws {
        // 300 global kill switches with targets and a group name far longer than a message
        // shows, 2,000 guarded routes.
        let long = String(repeating: "x", count: 5_000)
        let group = String(repeating: "g", count: 5_000)
        let routes =
            "options: { dispatchedSchemes: [https] }\nroutes:\n"
            + (1...2_000).map { "  - { name: r\($0), pattern: \"myapp://r\($0)\", groups: [\(group)] }" }.joined(
                separator: "\n")
        let rules =
            "group(\"\(group)\", function() end)\n"
            + (1...300).map {
                "interceptor { name = \"k\($0)\", all = true, run = function() return redirect(\"https://m.example.com/\($0)/\(long)\") end }"
            }.joined(separator: "\n")
        let bundle = try Self.bundle(routes: routes, rules: rules)
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        let findings = try BundleChecker(bundle: bundle).check()
        #expect(findings.count == 21)
        // Names are cut at 64 characters, the allow hint included: a message stays short.
        #expect(findings.allSatisfy { $0.code == .redirectLeavesPolicies && $0.message.count < 750 })
        #expect(
            Self.render(Array(findings.prefix(1)), in: bundle.directory) == [
                #"rules.lua:2:73: error: interceptor "k1" runs before the group policies of every route and returns redirect("https://m.example.com/1/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"), which the https dispatcher opens, where no policy runs: routes "r1", "r2", "r3" and 1997 more routes lose the group policy of "\#(group.prefix(64))…" — to keep it, return the redirect from interceptors of those routes (routes = { "r1", "r2", "r3", … }), which run after the group policies; if this is on purpose, accept it in manifest.yaml — allow: [{ code: redirect-leaves-policies, at: "k1", reason: … }] [redirect-leaves-policies]"#
            ])
        #expect(
            Self.render(Array(findings.suffix(1)), in: bundle.directory) == [
                #"rules.lua:22:74: error: 280 more redirects that leave group policies in this file are not listed — fix the ones above, then check again [redirect-leaves-policies]"#
            ])
    }

    @Test(arguments: cases)
    func findsWhatEachBundleGetsWrong(_ testCase: Case) throws {
        let bundle = try Self.bundle(routes: testCase.routes, rules: testCase.rules)
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        let findings = try BundleChecker(bundle: bundle).check()
        #expect(Self.render(findings, in: bundle.directory) == testCase.expected)
    }

    @Test func aSwiftInterceptorGivenToTheDeciderCoversItsGroup() throws {
        let bundle = try Self.bundle(
            routes: "routes:\n  - { name: live, pattern: \"myapp://live\", groups: [minors] }\n", rules: "")
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        #expect(try BundleChecker(bundle: bundle).check().map(\.code) == [.groupWithoutPolicy])
        let policy = SwiftInterceptor("minors", scope: .group("minors")) { _, _ in .continue }
        #expect(BundleChecker(decider: try Decider(bundle: bundle, interceptors: [policy])).check().isEmpty)
    }

    @Test func aChainWithoutEndNamesTheDecidersRedirectLimit() throws {
        let bundle = try Self.bundle(
            routes: "routes:\n  - { name: home, pattern: \"myapp://home\" }\n",
            rules: #"redirect { from = "myapp://grow/:x", to = "myapp://grow/{x}x" }"#)
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        let finding = try #require(
            try BundleChecker(bundle: bundle, options: DeciderOptions(maximumRedirects: 3)).check().first)
        #expect(finding.message.contains("refused after 3 redirects"))
    }

    @Test func aDeciderThatDoesNotCompileIsABundleError() throws {
        let bundle = try Self.bundle(
            routes: "routes:\n  - { name: home, pattern: \"myapp://home\" }\n",
            rules: #"redirect { from = "myapp://a/:id", to = "myapp://b/{nope}" }"#)
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        #expect(throws: BundleError.self) { try BundleChecker(bundle: bundle) }
        let failure = Finding(
            loadFailure: Diagnostic(.error, "broken", at: SourceLocation(file: "rules.lua", line: 1, column: 1)))
        #expect(failure.description == "rules.lua:1:1: error: broken [load-error]")
    }

    // MARK: - Helpers

    /// A bundle folder with `routes.yaml` and `rules.lua`, loaded.
    static func bundle(
        routes: String, rules: String, manifest: String = "name: check-test\nversion: 1\n"
    ) throws -> RuleBundle {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("junction-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try manifest.write(
            to: root.appendingPathComponent("manifest.yaml"), atomically: true, encoding: .utf8)
        try routes.write(to: root.appendingPathComponent("routes.yaml"), atomically: true, encoding: .utf8)
        try rules.write(to: root.appendingPathComponent("rules.lua"), atomically: true, encoding: .utf8)
        return try RuleBundle.load(directory: root.path)
    }

    /// Each finding's text with its file named relative to the bundle.
    static func render(_ findings: [Finding], in directory: String) -> [String] {
        findings.map { $0.description.replacingOccurrences(of: directory + "/", with: "") }
    }
}
