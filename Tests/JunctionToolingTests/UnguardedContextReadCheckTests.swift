import Foundation
import Junction
import JunctionTooling
import Testing

/// `junction check` warns where a function reads fields of a context key that may be
/// absent without testing the key: the rule that fails only for guests. Every way of
/// testing the key in the same function silences it.
@Suite struct UnguardedContextReadCheckTests {
    static let manifest = """
        name: check-test
        version: 1
        context:
          app_version: version
          user: { id: int, vip: bool, profile: { age: int } }
          flags: any
          hour: int
        """

    static let warning =
        "may be absent (a guest has no user) and this function reads its fields without testing it, so the rule "
        + "fails for those requests and its on_error decides — test it first: `if not ctx.user then … end`, or "
        + "`ctx.user and ctx.user.…` [unguarded-context-read]"

    static let cases: [(name: String, rules: String, expected: [String])] = [
        (
            "the rule that fails only for guests",
            """
            group("login", function(req, ctx)
              if ctx.user.vip then return nil end
              return gate("myapp://login")
            end)
            """,
            ["rules.lua:2:10: warning: ctx.user " + warning]
        ),
        (
            "through a local, once per line",
            """
            group("login", function(req, ctx)
              local user = ctx.user
              if user.id == 7 or user.vip then return reject("no") end
            end)
            """,
            ["rules.lua:3:6: warning: ctx.user " + warning]
        ),
        (
            "a deeper table needs its own test",
            """
            group("login", function(req, ctx)
              if ctx.user and ctx.user.profile.age < 18 then return reject("young") end
            end)
            """,
            [
                "rules.lua:2:28: warning: ctx.user.profile may be absent and this function reads its fields without "
                    + "testing it, so the rule fails for those requests and its on_error decides — test it first: "
                    + "`if not ctx.user.profile then … end`, or `ctx.user.profile and ctx.user.profile.…` "
                    + "[unguarded-context-read]"
            ]
        ),
        ("and", #"group("login", function(req, ctx) return ctx.user and ctx.user.vip and nil end)"#, []),
        (
            "if not … return",
            """
            group("login", function(req, ctx)
              if not ctx.user then return gate("myapp://login") end
              if ctx.user.id == 0 then return reject("banned") end
            end)
            """,
            []
        ),
        (
            "a local tested",
            """
            group("login", function(req, ctx)
              local user = ctx.user
              if user == nil then return gate("myapp://login") end
              return user.vip and nil or reject("vip only")
            end)
            """,
            []
        ),
        (
            "or {}",
            """
            group("login", function(req, ctx)
              local user = ctx.user or {}
              if user.vip then return nil end
            end)
            """,
            []
        ),
        (
            "type()",
            """
            group("login", function(req, ctx)
              if type(ctx.user) ~= "table" then return gate("myapp://login") end
              local id = ctx.user.id
              return id == 0 and reject("banned") or nil
            end)
            """,
            []
        ),
        (
            "a test in another function does not guard this one",
            """
            group("login", function(req, ctx)
              if not ctx.user then return gate("myapp://login") end
              return (function() return ctx.user.vip and nil end)()
            end)
            """,
            ["rules.lua:3:33: warning: ctx.user " + warning]
        ),
        (
            "top-level keys, scalars and a variable not named ctx give nothing",
            """
            group("login", function(req, ctx)
              local c = ctx
              if ctx.hour > 22 or c.user.vip then return reject("late") end
            end)
            """,
            []
        ),
    ]

    @Test(arguments: cases)
    func warnsWhereAnAbsentKeyIsIndexed(name: String, rules: String, expected: [String]) throws {
        let bundle = try BundleCheckerTests.bundle(
            routes: "routes:\n  - { name: home, pattern: \"myapp://home\", groups: [login] }\n", rules: rules,
            manifest: Self.manifest)
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        let findings = try BundleChecker(bundle: bundle).check().filter { $0.code.rawValue == "unguarded-context-read" }
        #expect(BundleCheckerTests.render(findings, in: bundle.directory) == expected, "\(name)")
    }

    @Test func withoutASchemaEveryKeyMayBeAbsent() throws {
        let bundle = try BundleCheckerTests.bundle(
            routes: "routes:\n  - { name: home, pattern: \"myapp://home\", groups: [login] }\n",
            rules: "group(\"login\", function(req, ctx) return ctx.account.id == 1 and nil end)\n")
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        let codes = try BundleChecker(bundle: bundle).check().map(\.code.rawValue)
        #expect(codes.contains("unguarded-context-read"))
    }
}
