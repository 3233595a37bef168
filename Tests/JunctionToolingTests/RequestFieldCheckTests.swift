import Foundation
import Junction
import JunctionTooling
import Testing

/// `junction check` reads every `req.…` field a rule reads against a request's shape: a
/// misspelt field is an error at its line with the nearest name.
@Suite struct RequestFieldCheckTests {
    static let cases: [(name: String, rules: String, expected: [String])] = [
        (
            "a misspelt field, in a helper called in tail position",
            """
            local function first(req)
              return req.segmants[1]
            end
            group("login", function(req, ctx)
              return first(req)
            end)
            """,
            [
                #"rules.lua:2:14: error: req.segmants is not a field of req (exts, host, params, path, query, route, scheme, segments, source, url), so it is always nil; did you mean "segments"? — fix the name [unknown-request-field]"#
            ]
        ),
        (
            "a field of req.route, directly and through a local",
            """
            group("login", function(req, ctx)
              local route = req.route
              local groups = route.grups
              if req.route.nmae == "home" then return groups end
            end)
            """,
            [
                #"rules.lua:3:24: error: req.route.grups is not a field of req.route (exported, groups, meta, name, pattern, target), so it is always nil; did you mean "groups"? — fix the name [unknown-request-field]"#,
                #"rules.lua:4:16: error: req.route.nmae is not a field of req.route (exported, groups, meta, name, pattern, target), so it is always nil; did you mean "name"? — fix the name [unknown-request-field]"#,
            ]
        ),
        (
            "every field a request has, and a variable not named req, give nothing",
            """
            group("login", function(req, ctx)
              local r = req
              local _ = req.url, req.scheme, req.host, req.path, req.segments, req.params.id, req.query.q,
                req.exts.animated, req.source, req.route and req.route.meta, r.anything
            end)
            """,
            []
        ),
    ]

    @Test(arguments: cases)
    func readsTheRequestAgainstItsShape(name: String, rules: String, expected: [String]) throws {
        let bundle = try BundleCheckerTests.bundle(
            routes: "routes:\n  - { name: home, pattern: \"myapp://home\", groups: [login] }\n", rules: rules)
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        let findings = try BundleChecker(bundle: bundle).check().filter { $0.code.rawValue == "unknown-request-field" }
        #expect(BundleCheckerTests.render(findings, in: bundle.directory) == expected, "\(name)")
    }
}
