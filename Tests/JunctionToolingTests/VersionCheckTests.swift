import Foundation
import Junction
import JunctionTooling
import Testing

/// `junction check` reads the versions a bundle writes: literals given to
/// `version.compare` against the version grammar, a version key of the context compared
/// as text, and a pre-release `minimum_host_version`.
@Suite struct VersionCheckTests {
    static let manifest = """
        name: check-test
        version: 1
        context:
          app_version: version
          hour: int
          user: { id: int }
        """

    static let cases: [(name: String, rules: String, expected: [String])] = [
        (
            "a literal that is not a version",
            """
            group("login", function(req, ctx)
              if version.compare(ctx.app_version, "6.1 beta") < 0 then return reject("old") end
            end)
            """,
            [
                #"rules.lua:2:39: error: version.compare is given a literal that is not a version ("6.1 beta" is not a version: expected ".", "-", "+", "(" or the end at byte 5, found "b"; versions read like 6.2, v6.0.1, 6.0.1-beta.2 or 6.0.1 (1234)), so the call fails on every request that reaches it — fix the literal [bad-version-literal]"#
            ]
        ),
        (
            "a version compared as text",
            """
            group("login", function(req, ctx)
              local v = ctx.app_version
              if v < "6.10" then return reject("old") end
            end)
            """,
            [
                #"rules.lua:3:3: error: ctx.app_version is a version (the manifest's context: schema), and <, <=, > and >= compare it as text, where "6.10" comes before "6.9" (or fail against a number) — compare with version.compare(ctx.app_version, "6.1") < 0 [version-compared-as-text]"#
            ]
        ),
        (
            "versions that parse, either argument, and ordered ints give nothing",
            """
            group("login", function(req, ctx)
              if version.compare("6.0.1-beta.2", ctx.app_version) > 0 or ctx.hour >= 22 or ctx.hour < 6 then
                return reject("no")
              end
            end)
            """,
            []
        ),
    ]

    @Test(arguments: cases)
    func readsTheVersionsRulesWrite(name: String, rules: String, expected: [String]) throws {
        let bundle = try BundleCheckerTests.bundle(
            routes: "routes:\n  - { name: home, pattern: \"myapp://home\", groups: [login] }\n", rules: rules,
            manifest: Self.manifest)
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        let findings = try BundleChecker(bundle: bundle).check().filter {
            ["bad-version-literal", "version-compared-as-text"].contains($0.code.rawValue)
        }
        #expect(BundleCheckerTests.render(findings, in: bundle.directory) == expected, "\(name)")
    }

    @Test(arguments: [
        (
            "6.1-beta",
            [
                #"manifest.yaml:3:1: warning: minimum_host_version 6.1.0-beta is a pre-release: builds of 6.1.0-beta and later pre-releases load the bundle, earlier pre-releases of 6.1.0 refuse it — if the bundle is for the 6.1.0 release and later, write minimum_host_version: "6.1.0" [prerelease-host-version]"#
            ]
        ),
        ("6.1", []),
        ("6.1.0+77", []),
    ])
    func aPreReleaseMinimumHostVersionIsAWarning(minimum: String, expected: [String]) throws {
        let bundle = try BundleCheckerTests.bundle(
            routes: "routes:\n  - { name: home, pattern: \"myapp://home\" }\n", rules: "",
            manifest: "name: check-test\nversion: 1\nminimum_host_version: \"\(minimum)\"\n")
        defer { try? FileManager.default.removeItem(atPath: bundle.directory) }
        let findings = try BundleChecker(bundle: bundle).check().filter {
            $0.code.rawValue == "prerelease-host-version"
        }
        #expect(BundleCheckerTests.render(findings, in: bundle.directory) == expected)
    }
}
