import Foundation
import Testing

/// `junction check DIR --app FILE...`: a bundle checked against what app versions can
/// open, end to end — the printed findings, the notes, the JSON, the exit status.
@Suite struct CheckCommandAppTests {
    @Test func anAppThatOpensEverythingTheBundleLeadsToIsOk() throws {
        let bundle = try CLIRunner.fixture("check-apps")
        let result = try CLIRunner.run(["check", bundle, "--app", try CLIRunner.fixture("apps/app-6.1.json")])
        #expect(result.status == 0)
        #expect(result.stdout == "\(bundle): ok\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func theAppWithoutAPageOnlyANewerOneHasFailsTheCheck() throws {
        let bundle = try CLIRunner.fixture("check-apps")
        let (old, ancient, new) = (
            try CLIRunner.fixture("apps/app-6.0.json"), try CLIRunner.fixture("apps/app-4.9.json"),
            try CLIRunner.fixture("apps/app-6.1.json")
        )
        let result = try CLIRunner.run(["check", bundle, "--app", old, "--app", ancient, "--app", new])
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                \(bundle)/manifest.yaml:3:1: error: minimum_host_version 5.0.0 lets app 6.0.0 (\(old)) load this bundle, but that app has no page or task for target "LivePage", so what the bundle leads there opens nothing — send version 6.0.0 and older elsewhere where the bundle leads them there (each finding at a route or redirect says how), or raise minimum_host_version above 6.0.0 (app 6.1.0 (\(new)) has everything it leads to): then that app refuses the whole bundle, every other change in it too, and keeps the bundle it has [host-version-too-low]
                \(bundle)/routes.yaml:4:5: error: route "live" (myapp://live/:room) leads to target "LivePage", which app 6.0.0 (\(old)) has no page or task for, so there it opens nothing — send those versions elsewhere with an interceptor of the route (route = "live", run = function(req, ctx) if version.compare(ctx.app_version, "6.0.0") <= 0 then return redirect("https://…") end end), point the route at a target that app has, or remove it; raising minimum_host_version above 6.0.0 would make app 6.0.0 (\(old)) refuse the whole bundle, every other change in it too [target-missing]
                \(bundle)/rules.lua:1:46: error: redirect from "myapp://feed/:room" to "myapp://live/{room}" leads to route "live", whose target "LivePage" app 6.0.0 (\(old)) has no page or task for, e.g. myapp://feed/7 → myapp://live/7 — redirect to a URL that app opens, or only for versions after 6.0.0 (a when condition with version.compare); raising minimum_host_version above 6.0.0 would make app 6.0.0 (\(old)) refuse the whole bundle, every other change in it too [redirect-to-missing-target]
                \(ancient): note: host_version 4.9.0 is below the bundle's minimum_host_version 5.0.0: that app never loads this bundle, so nothing is checked against it
                \(bundle): 3 errors, 0 warnings

                """)
    }

    @Test func anAppBelowTheMinimumHostVersionGetsANoteAndNoFinding() throws {
        let bundle = try CLIRunner.fixture("check-apps")
        let ancient = try CLIRunner.fixture("apps/app-4.9.json")
        let result = try CLIRunner.run(["check", bundle, "--app", ancient])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                \(ancient): note: host_version 4.9.0 is below the bundle's minimum_host_version 5.0.0: that app never loads this bundle, so nothing is checked against it
                \(bundle): ok

                """)
    }

    @Test func theJSONReportListsTheAppsAndTheirFindings() throws {
        let bundle = try CLIRunner.fixture("check-apps")
        let (old, ancient) = (try CLIRunner.fixture("apps/app-6.0.json"), try CLIRunner.fixture("apps/app-4.9.json"))
        let result = try CLIRunner.run(["check", "--format", "json", bundle, "--app", old, "--app", ancient])
        #expect(result.status == 1)
        #expect(result.stdout.hasSuffix("}\n") && result.stdout.filter { $0 == "\n" }.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["bundle", "errors", "warnings", "findings", "apps"])
        #expect(object["errors"] as? Int == 3)
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(
            findings.map { $0["code"] as? String } == [
                "host-version-too-low", "target-missing", "redirect-to-missing-target",
            ])
        #expect(findings.map { $0["line"] as? Int } == [3, 4, 1])
        let apps = try #require(object["apps"] as? [[String: Any]])
        #expect(apps.map { $0["file"] as? String } == [old, ancient])
        #expect(apps.map { $0["host_version"] as? String } == ["6.0.0", "4.9.0"])
        #expect(apps.map { $0["loads_bundle"] as? Bool } == [true, false])
    }

    @Test func aCapabilitiesFileThatCannotBeReadExitsTwoNamingTheFileAndTheMember() throws {
        let bundle = try CLIRunner.fixture("check-apps")
        let broken = try CLIRunner.fixture("apps/broken.json")
        let result = try CLIRunner.run(["check", bundle, "--app", broken])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "check: error: \(broken): pages[1]: expected text, found 7\n")
        let missing = try CLIRunner.run(["check", bundle, "--app", "/nonexistent/app.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "check: error: /nonexistent/app.json: no such file\n")
    }

    @Test func theExampleBundlePassesCleanAgainstTheExampleApp() throws {
        let root = CLIRunner.repositoryRoot
        let bundle = root.appendingPathComponent("rules/example").path
        let app = root.appendingPathComponent("rules/example/app-6.0.json").path
        let result = try CLIRunner.run(["check", "--strict", bundle, "--app", app])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout == "\(bundle): ok\n")
    }
}
