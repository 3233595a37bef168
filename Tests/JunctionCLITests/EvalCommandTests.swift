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
            lines[2].hasPrefix("    1. redirect myapp://feed/:id (redirects.lua:4) → redirect myapp://moments/7  ["))
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
        (["--context", "a=1", "--context", "a.b=2"], "--context \"a.b=2\": a is already a value, not a table"),
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
}
