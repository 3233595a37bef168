import Foundation
import Junction
import JunctionTooling
import Testing

/// `junction check` reads every `ctx.…` path a rule reads against the manifest's context
/// schema: an undeclared key, at any depth, or a field of a scalar is an error that names
/// the nearest declared key; what the schema allows, a variable not named `ctx`, and a
/// bundle without a schema give nothing.
@Suite struct ContextReadCheckTests {
    static let manifest = """
        name: check-test
        version: 1
        context:
          app_version: version
          user: { id: int, age: int }
          hour: int
          extra: any
        """

    static let cases: [(name: String, rules: String, expected: [String])] = [
        (
            "a misspelt top-level key, with the nearest one",
            """
            group("login", function(req, ctx)
              if version.compare(ctx.app_verison, "6.0") < 0 then return reject("old") end
            end)
            """,
            [
                #"rules.lua:2:26: error: ctx.app_verison is not declared in the manifest's context: schema, so it is always nil here; did you mean "ctx.app_version"? — fix the name, or declare it under context: in manifest.yaml [unknown-context-key]"#
            ]
        ),
        (
            "a misspelt key read through a local is one finding, where it is first read",
            """
            group("login", function(req, ctx)
              local user = ctx.usr
              if user.id == nil then return gate("myapp://login") end
            end)
            """,
            [
                #"rules.lua:2:20: error: ctx.usr is not declared in the manifest's context: schema, so it is always nil here; did you mean "ctx.user"? — fix the name, or declare it under context: in manifest.yaml [unknown-context-key]"#
            ]
        ),
        (
            "a nested key the table does not declare",
            """
            group("login", function(req, ctx)
              if ctx.user and ctx.user.idd == 7 then return reject("seven") end
            end)
            """,
            [
                #"rules.lua:2:28: error: ctx.user.idd is not declared in ctx.user (the manifest's context: schema), so it is always nil here; did you mean "ctx.user.id"? — fix the name, or declare it under context: in manifest.yaml [unknown-context-key]"#
            ]
        ),
        (
            "a field of a scalar",
            """
            group("login", function(req, ctx)
              if ctx.hour.value > 22 then return reject("late") end
            end)
            """,
            [
                #"rules.lua:2:15: error: ctx.hour is an int (the manifest's context: schema), which has no field "value" — read ctx.hour itself [unknown-context-key]"#
            ]
        ),
        (
            "what the schema declares, an any's insides, and a variable not named ctx give nothing",
            """
            group("login", function(req, ctx)
              local user = ctx.user
              if user and user.id and ctx.hour < 6 and ctx.extra.anything then return nil end
              local c = ctx
              return (function(context) return context.whatever end)(c)
            end)
            """,
            []
        ),
    ]

    @Test(arguments: cases)
    func readsTheContextAgainstTheSchema(name: String, rules: String, expected: [String]) throws {
        let bundle = try BundleCheckerTests.bundle(
            routes: "routes:\n  - { name: home, pattern: \"myapp://home\", groups: [login] }\n", rules: rules,
            manifest: Self.manifest)
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        let findings = try BundleChecker(bundle: bundle).check().filter { $0.code.rawValue == "unknown-context-key" }
        #expect(BundleCheckerTests.render(findings, in: bundle.directory) == expected)
    }

    @Test func aBundleWithoutASchemaIsNotChecked() throws {
        let bundle = try BundleCheckerTests.bundle(
            routes: "routes:\n  - { name: home, pattern: \"myapp://home\", groups: [login] }\n",
            rules: "group(\"login\", function(req, ctx) return ctx.anything and nil end)\n")
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        #expect(try BundleChecker(bundle: bundle).check().allSatisfy { $0.code.rawValue != "unknown-context-key" })
    }
}
