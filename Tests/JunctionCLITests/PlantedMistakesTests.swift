import Foundation
import Testing

/// Tonight's changes, each with one mistake an operations engineer planted in the example
/// bundle (issue 30): every one is caught before signing — `bundle build` refuses the
/// errors without `--strict`, and `check` reports the warnings — at the file and line of
/// the mistake, with what to do.
@Suite struct PlantedMistakesTests {
    struct Mistake: Sendable, CustomTestStringConvertible {
        var name: String
        var edits: [String: [(String, String)]]
        /// `FILE:LINE:` of the finding, relative to the bundle.
        var at: String
        var severity: String
        var code: String
        var testDescription: String { name }
    }

    static let mistakes: [Mistake] = [
        Mistake(
            name: "version.compair",
            edits: ["redirects.lua": [("version.compare(ctx.app_version", "version.compair(ctx.app_version")]],
            at: "redirects.lua:13:", severity: "error", code: "undefined-global"),
        Mistake(
            name: "ctx.app_verison",
            edits: ["redirects.lua": [("if ctx.app_version ~= nil", "if ctx.app_verison ~= nil")]],
            at: "redirects.lua:13:", severity: "error", code: "unknown-context-key"),
        Mistake(
            name: "req.segmants",
            edits: [
                "interceptors.lua": [
                    (
                        "",
                        """

                        interceptor { name = "order-check", route = "order.detail", run = function(req, ctx)
                          if req.segmants[1] == "0" then return reject("no such order", 404) end
                        end }
                        """
                    )
                ]
            ],
            at: "interceptors.lua:51:", severity: "error", code: "unknown-request-field"),
        Mistake(
            name: "a loop between two declared redirects",
            edits: [
                "redirects.lua": [
                    (
                        "",
                        "\nredirect { from = \"myapp://sale\", to = \"myapp://promo\" }\nredirect { from = \"myapp://promo\", to = \"myapp://sale\" }\n"
                    )
                ]
            ],
            at: "redirects.lua:18:", severity: "error", code: "redirect-cycle"),
        Mistake(
            name: "a loop between two rules' redirects",
            edits: [
                "interceptors.lua": [
                    (
                        "",
                        """

                        interceptor { name = "checkout-v2-off", route = "checkout.v2", run = function(req, ctx)
                          if ctx.flags and ctx.flags.video_disabled then return redirect("myapp://checkout") end
                        end }
                        """
                    )
                ]
            ],
            at: "interceptors.lua:17:", severity: "warning", code: "redirect-cycle"),
        Mistake(
            name: "a rule that fails only for guests",
            edits: [
                "interceptors.lua": [
                    (
                        "",
                        """

                        interceptor { name = "even-users", route = "checkout", run = function(req, ctx)
                          if ctx.user.id % 2 == 0 then return nil end
                        end }
                        """
                    )
                ]
            ],
            at: "interceptors.lua:51:", severity: "warning", code: "unguarded-context-read"),
        Mistake(
            name: "a redirect that skips the checkout's login gate",
            edits: [
                "redirects.lua": [
                    ("", "\nredirect { from = \"myapp://checkout\", to = \"https://m.shop.example.com/checkout\" }\n")
                ]
            ],
            at: "redirects.lua:18:", severity: "error", code: "redirect-leaves-policies"),
        Mistake(
            name: "groups: [logni]",
            edits: [
                "routes.yaml": [
                    (
                        "    exported: true\n    groups: [login]\n    launch: singleTask",
                        "    exported: true\n    groups: [logni]\n    launch: singleTask"
                    )
                ]
            ],
            at: "routes.yaml:56:", severity: "error", code: "group-near-policy"),
        Mistake(
            name: "minimum_host_version: 6.1-beta",
            edits: ["manifest.yaml": [("minimum_host_version: \"5.0.0\"", "minimum_host_version: \"6.1-beta\"")]],
            at: "manifest.yaml:4:", severity: "warning", code: "prerelease-host-version"),
    ]

    @Test(arguments: mistakes)
    func isCaughtBeforeSigning(_ mistake: Mistake) throws {
        let bundle = try DiffCommandTests.edited(mistake.edits)
        let key = try ShippingFixtures.writeKey(in: try ShippingFixtures.folder())
        let output = bundle + ".jbundle"
        let build = try CLIRunner.run(["bundle", "build", bundle, "--key", key, "-o", output])
        let printed = (build.stdout + build.stderr).split(separator: "\n").map { String($0) }
        let finding = printed.first {
            $0.hasPrefix(bundle + "/" + mistake.at) && $0.contains(": \(mistake.severity): ")
                && $0.hasSuffix("[\(mistake.code)]")
        }
        #expect(finding != nil, "\(build.stdout)\(build.stderr)")
        // What to do, after the dash every finding's message has.
        #expect(finding?.contains(" — ") == true)
        if mistake.severity == "error" {
            #expect(build.status == 1)
            #expect(!FileManager.default.fileExists(atPath: output))
        } else {
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let check = try CLIRunner.run(["check", bundle, "--strict"])
            #expect(check.status == 1)
            #expect(check.stdout.contains("[\(mistake.code)]"))
        }
    }

    /// A redirect around the login gate that is meant (the H5 order list asks for login itself):
    /// accepted in the manifest's `allow:`, the bundle builds, and `check` lists it.
    @Test func aPolicyDroppingRedirectMeantOnPurposeIsAcceptedAndListed() throws {
        let bundle = try DiffCommandTests.edited([
            "redirects.lua": [
                ("", "\nredirect { from = \"myapp://orders\", to = \"https://m.shop.example.com/orders\" }\n")
            ],
            "manifest.yaml": [
                (
                    "",
                    """
                    allow:
                      - code: redirect-leaves-policies
                        at: "myapp://orders"
                        reason: the H5 order list asks for login itself (OPS-42)

                    """
                )
            ],
        ])
        let key = try ShippingFixtures.writeKey(in: try ShippingFixtures.folder())
        let build = try CLIRunner.run(["bundle", "build", bundle, "--key", key, "-o", bundle + ".jbundle"])
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        let check = try CLIRunner.run(["check", bundle, "--strict"])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(
            check.stdout.contains(
                "/redirects.lua:18:42: accepted: redirect from \"myapp://orders\" to \"https://m.shop.example.com/orders\""
            ))
        #expect(
            check.stdout.contains(
                "[redirect-leaves-policies] — allowed at \(bundle)/manifest.yaml:17:5 because: the H5 order list asks "
                    + "for login itself (OPS-42)\n"))
        #expect(check.stdout.hasSuffix("\(bundle): ok (1 accepted on purpose)\n"))
    }
}
