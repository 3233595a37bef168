import Foundation
import Testing

@Suite struct MatchCommandTests {
    static let urls = [
        "myapp://user/42?tab=posts&tab=likes&q=a+b",
        "myapp://user/alice",
        "MyApp://USER/7/",
        "myapp://web?url=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1%26c%3D2",
        "ftp://files/a/b%2Fc",
        "https://example.com/u/9#top",
        "https://evil.com/u/9",
        "myapp://nothing/here",
    ]

    @Test func printsOneJSONObjectPerURLInTheContractShape() throws {
        let result = try CLIRunner.run(["match", "--routes", CLIRunner.fixture("routes.yaml"), "--json"] + Self.urls)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == Self.urls.count)
        for (line, url) in zip(lines, Self.urls) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["url"] as? String == url)
            if let match = object["match"] as? [String: Any] {
                #expect(Set(object.keys) == ["url", "match"])
                #expect(Set(match.keys) == ["route", "pattern", "params", "query"])
                #expect(match["params"] is [String: String])
                #expect(match["query"] is [String: [String]])
            } else {
                #expect(Set(object.keys) == ["url", "match", "reason"])
                #expect(object["match"] is NSNull)
                #expect((object["reason"] as? String)?.isEmpty == false)
            }
        }
        try CLIRunner.expectSnapshot(result.stdout, named: "match.jsonl")
    }

    @Test func printsReadableLinesWithoutJSON() throws {
        let result = try CLIRunner.run(["match", "--routes", CLIRunner.fixture("routes.yaml")] + Self.urls)
        #expect(result.status == 0)
        try CLIRunner.expectSnapshot(result.stdout, named: "match.txt")
    }

    @Test func exitsThreeWhenAURLDoesNotParseAndStillPrintsTheOthers() throws {
        let result = try CLIRunner.run([
            "match", "--routes", CLIRunner.fixture("routes.yaml"), "--json",
            "myapp://user/1", "myapp://user/%zz", "1nvalid://x",
        ])
        #expect(result.status == 3)
        try CLIRunner.expectSnapshot(result.stdout, named: "match-unparsable.jsonl")
    }

    @Test func exitsTwoOnATableErrorWithLocatedDiagnostics() throws {
        let table = try CLIRunner.fixture("broken.yaml")
        let result = try CLIRunner.run(["match", "--routes", table, "myapp://a/1"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("\(table):4:5: error: duplicate route name \"a\""))
    }

    @Test func explainsOtherCandidatesAndRejectedRoutes() throws {
        let result = try CLIRunner.run([
            "match", "--routes", CLIRunner.fixture("routes.yaml"), "--explain", "myapp://user/alice",
        ])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                myapp://user/alice -> user.byName (myapp://user/:name) name=alice
                    not route "user.profile" (myapp://user/:id): parameter "id" must be int, got "alice"

                """)
    }

    @Test func matchesTheExampleBundlesDeepLinks() throws {
        let routes = CLIRunner.repositoryRoot.appendingPathComponent("rules/example/routes.yaml").path
        let check = try CLIRunner.run(["routes", "check", routes])
        #expect(check.status == 0, "\(check.stdout)")
        let result = try CLIRunner.run(["match", "--routes", routes, "--json", "myapp://user/42", "myapp://moments/7"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(#""route": "user.profile""#))
    }
}
