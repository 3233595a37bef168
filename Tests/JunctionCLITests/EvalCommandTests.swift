import Foundation
import Testing

@Suite struct EvalCommandTests {
    static func eval(_ arguments: [String]) throws -> CLIRunner.Result {
        try CLIRunner.run(["eval"] + arguments + ["--bundle", "rules/example"], in: CLIRunner.repositoryRoot)
    }

    @Test(
        arguments: [
            (
                ["myapp://moments/7", "--source", "push"], "myapp://moments/7 → gate myapp://login, then resume",
                Int32(0)
            ),
            (["myapp://moments/7", "--context", "user.id=1"], #"myapp://moments/7 → open moments {"id":7}"#, 0),
            (
                ["myapp://order/AB123456", "--context", #"app_version="5.3.0""#, "--context", "user.id=1"],
                "myapp://order/AB123456 → hand over https://m.shop.example.com/orders/AB123456 to the https dispatcher, after redirects myapp://order/AB123456 → https://m.shop.example.com/orders/AB123456",
                0
            ),
            (
                ["myapp://newthing"],
                "myapp://newthing → open upgrade {\"from\":\"myapp://newthing\"}, after redirects myapp://newthing → myapp://upgrade?from=myapp%3A%2F%2Fnewthing",
                0
            ),
            (
                ["myapp://user/settings", "--source", "push"],
                "myapp://user/settings → rejected (403): route \"user.settings\" is not exported", 1
            ),
            (["tp://x"], "tp://x → unmatched tp://x", 1),
        ] as [([String], String, Int32)])
    func printsTheDecision(arguments: [String], expected: String, status: Int32) throws {
        let result = try Self.eval(arguments)
        #expect(result.stdout.hasPrefix(expected), "\(result.stdout)")
        #expect(result.status == status)
    }

    @Test func explainListsTheStepsWithTheirRules() throws {
        let result = try Self.eval(["myapp://feed/7", "--source", "push", "--explain"])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 7)
        #expect(lines[1].hasPrefix("  trace (example@3, "))
        #expect(
            lines[2].hasPrefix("    1. redirect myapp://feed/:id (redirects.lua:6) → redirect myapp://moments/7  ["))
        #expect(lines[6].hasPrefix("    5. group login (policies.lua:4) → gate myapp://login  ["))
        #expect(result.stderr.contains("lua info: push link myapp://moments/7 campaign=none"))
    }

    @Test func jsonIsOneObject() throws {
        let result = try Self.eval(["myapp://action/experiment/new-feed", "--context", "device_id=d3", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["outcome"] as? String == "respond")
        #expect((object["value"] as? [String: Any])?["variant"] as? String == "B")
        #expect((object["trace"] as? [[String: Any]])?.count == 3)
    }

    @Test(arguments: [
        (["--context", "novalue"], "--context \"novalue\": write key=value"),
        (
            ["--context", "hour=1", "--context", "hour.b=2"],
            "--context \"hour.b=2\": context hour is declared int, not a table: it has no b"
        ),
    ])
    func badContextExitsThree(arguments: [String], message: String) throws {
        let result = try Self.eval(["myapp://home"] + arguments)
        #expect(result.status == 3)
        #expect(result.stderr.contains(message))
    }

    @Test func aBundleThatDoesNotLoadExitsTwo() throws {
        let result = try CLIRunner.run(["eval", "myapp://home", "--bundle", "/nonexistent"])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "/nonexistent:1:1: error: no such directory; give the bundle's folder, the one with manifest.yaml and routes.yaml\n"
        )
    }

    static func evalWithSchema(_ arguments: [String]) throws -> CLIRunner.Result {
        try CLIRunner.run(["eval", "myapp://show", "--bundle", try CLIRunner.fixture("context-schema")] + arguments)
    }

    /// The fixture's rule answers with what it sees of ctx, each value with its Lua type.
    @Test func typesTheContextByTheManifestsSchema() throws {
        let result = try Self.evalWithSchema([
            "--context", "app_version=6.0", "--context", "hour=22", "--context", "device_id=123",
            "--context", "user.id=7", "--context", "roles=[admin, 5]", "--source", "mini_program", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(
            object["value"] as? [String: String] == [
                "app_version": "6.0 (string)", "hour": "22 (integer)", "device_id": "123 (string)",
                "user_id": "7 (integer)", "roles": "admin (string), 5 (string)", "source": "mini_program",
            ])
    }

    @Test(arguments: [
        (
            ["--context", "user_id=7"],
            "--context \"user_id=7\": context key \"user_id\" is not declared in the manifest's context:; did you mean \"user.id\"?"
        ),
        (
            ["--context", "user.idd=7"],
            "--context \"user.idd=7\": context key \"user.idd\" is not declared in the manifest's context:; did you mean \"user.id\"?"
        ),
        (
            ["--context", #"hour="22""#],
            #"--context "hour="22"": context hour is declared int, not the text "22"; write 22 without quotes"#
        ),
        (
            ["--context", "app_version=soon"],
            "--context \"app_version=soon\": context app_version is declared version, not soon; a version reads like 5.2.0"
        ),
        (
            ["--context", "flags.native_live=yes"],
            "--context \"flags.native_live=yes\": context flags.native_live is declared bool, not yes; write true or false"
        ),
        (
            ["--context", "roles=admin"],
            "--context \"roles=admin\": context roles is declared [string], not admin; write [admin]"
        ),
        (
            ["--context", "roles=[a, [b]]"],
            "--context \"roles=[a, [b]]\": context roles[2] is declared string, not a list"
        ),
        (
            ["--context", "hour.at=1"],
            "--context \"hour.at=1\": context hour is declared int, not a table: it has no at"
        ),
        (
            ["--context", "user=7"],
            "--context \"user=7\": context user is declared a table (keys id, age), not 7"
        ),
        (
            ["--source", "mini_progam"],
            "--source: source \"mini_progam\" is neither standard nor declared in the manifest's sources: (internal, push, universal_link, h5, external, mini_program); did you mean \"mini_program\"?"
        ),
        (["--context", "novalue"], "--context \"novalue\": write key=value"),
    ])
    func aContextOrSourceTheManifestDoesNotKnowExitsThree(arguments: [String], message: String) throws {
        let result = try Self.evalWithSchema(arguments)
        #expect(result.status == 3)
        #expect(result.stderr == message + "\n")
        #expect(result.stdout == "")
    }

    /// Without a context: schema, values are typed as YAML types them and any key goes;
    /// --source must still be a known one.
    @Test func withoutASchemaAnyKeyGoesButSourcesAreKnown() throws {
        let bundle = try CLIRunner.fixture("check-clean")
        let typed = try CLIRunner.run(["eval", "myapp://home", "--bundle", bundle, "--context", "anything.at_all=6.0"])
        #expect(typed.status == 0, "\(typed.stderr)")
        let source = try CLIRunner.run(["eval", "myapp://home", "--bundle", bundle, "--source", "pushh"])
        #expect(source.status == 3)
        #expect(
            source.stderr
                == "--source: source \"pushh\" is neither standard nor declared in the manifest's sources: (internal, push, universal_link, h5, external); did you mean \"push\"?\n"
        )
    }
}
