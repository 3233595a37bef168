import Foundation
import Junction
import JunctionAuthoring
import Testing

/// `junction eval --urls FILE`: a corpus decided line by line, on every core, printed in
/// order; lines that cannot be read stop it with where and why.
@Suite struct EvalCorpusTests {
    static let bundle = CLIRunner.repositoryRoot.appendingPathComponent("rules/example").path

    static func corpus(_ text: String) throws -> String {
        let folder = try ShippingFixtures.folder()
        let path = folder + "/urls.txt"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func eval(_ text: String, _ options: [String] = []) throws -> CLIRunner.Result {
        try CLIRunner.run(["eval", "--urls", try corpus(text), "--bundle", bundle] + options)
    }

    static func objects(_ stdout: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    @Test func eachLineIsDecidedAsItsOwnEvalWouldDecideIt() throws {
        let text = """
            myapp://user/42

            # deep links from last night's push
            {"url": "myapp://moments/7", "source": "push"}
            {"url": "myapp://order/AB123456", "context": {"app_version": "5.3.0", "user": {"id": 1}}}
            {"url": "myapp://user/42", "params": {"tab": "likes"}}
            myapp://nothing
            """
        let result = try Self.eval(text, ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let decisions = Self.objects(result.stdout)
        #expect(
            decisions.map { $0["url"] as? String } == [
                "myapp://user/42", "myapp://moments/7", "myapp://order/AB123456", "myapp://user/42", "myapp://nothing",
            ])
        #expect(decisions.map { $0["outcome"] as? String } == ["open", "gate", "hand_over", "open", "open"])
        #expect(decisions[1]["source"] as? String == "push")
        #expect((decisions[3]["params"] as? [String: Any])?["tab"] as? String == "likes")

        // The same as one eval each.
        let single = try CLIRunner.run([
            "eval", "myapp://order/AB123456", "--bundle", Self.bundle, "--json", "--context", #"app_version="5.3.0""#,
            "--context", "user.id=1",
        ])
        let one = try #require(Self.objects(single.stdout).first)
        #expect(one["outcome"] as? String == decisions[2]["outcome"] as? String)
        #expect(one["final_url"] as? String == decisions[2]["final_url"] as? String)
    }

    @Test func theOptionsFillWhatALineLeavesOut() throws {
        let text = """
            myapp://moments/7
            {"url": "myapp://moments/7", "source": "internal", "context": {"user": {"id": 3}}}
            """
        let result = try Self.eval(text, ["--json", "--source", "push"])
        let decisions = Self.objects(result.stdout)
        #expect(decisions.map { $0["outcome"] as? String } == ["gate", "open"])
        #expect(decisions.map { $0["source"] as? String } == ["push", "internal"])
    }

    @Test func tenThousandLinesComeOutInTheirOrder() throws {
        let urls = (0..<10_000).map {
            $0 % 3 == 0 ? "myapp://user/\($0)" : $0 % 3 == 1 ? "myapp://nothing/\($0)" : "myapp://home?n=\($0)"
        }
        let result = try Self.eval(urls.joined(separator: "\n") + "\n")
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == urls.count)
        #expect(zip(lines, urls).allSatisfy { $0.hasPrefix($1 + " → ") })
    }

    @Test(arguments: [
        (
            #"{"url": "myapp://home", "when": 1}"#,
            #"unknown field "when"; a corpus line has url, source, context and params"#
        ),
        (#"{"url": "myapp://home""#, "not a JSON object"),
        (#"{"source": "push"}"#, #""url" is missing or not text"#),
        (#"{"url": 7}"#, #""url" is missing or not text"#),
        (#"{"url": "myapp://home", "source": 1}"#, #""source" is not text"#),
        (#"{"url": "myapp://home", "context": []}"#, #""context" is not an object"#),
        (#"{"url": "myapp://home", "params": "x"}"#, #""params" is not an object"#),
        ("myapp://home and more", "a URL has no spaces"),
        (#"{"url": "myapp://home", "source": "pigeon"}"#, "source:"),
        ("myapp://" + String(repeating: "a", count: 70_000), "the line is longer than 65536 bytes"),
    ])
    func aLineThatCannotBeReadStopsWithItsPlaceAfterTheLinesBefore(line: String, message: String) throws {
        let path = try Self.corpus("myapp://home\nmyapp://user/1\n" + line + "\nmyapp://user/2\n")
        let result = try CLIRunner.run(["eval", "--urls", path, "--bundle", Self.bundle])
        #expect(result.status == 3)
        #expect(result.stdout.split(separator: "\n").count == 2, "the two lines before it were decided")
        #expect(result.stderr.hasPrefix("\(path):3: error: "), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test(arguments: [
        (["eval", "myapp://home", "--urls", "x", "--bundle", "b"], "--urls decides a corpus"),
        (["eval", "--urls", "x", "--explain", "--bundle", "b"], "--urls decides a corpus"),
        (["eval", "--bundle", "b"], "give a URL to open, or --urls FILE"),
    ])
    func aURLAndACorpusAreOneOrTheOther(arguments: [String], message: String) throws {
        let result = try CLIRunner.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func aCorpusThatCannotBeReadIsExit3() throws {
        let result = try CLIRunner.run(["eval", "--urls", "/nonexistent/urls.txt", "--bundle", Self.bundle])
        #expect(result.status == 3)
        #expect(result.stderr.contains("/nonexistent/urls.txt: error: cannot be read"))
    }
}

/// What an app's decision observer exports is what `eval --urls` and `diff --urls` read.
@Suite struct CorpusExportTests {
    @Test func linesAnAppExportsDecideAsTheAppDecided() throws {
        let bundle = try RuleBundle.load(directory: EvalCorpusTests.bundle)
        let decider = try Decider(bundle: bundle)
        let requests: [(RouteRequest, [String: RuleValue])] = [
            (RouteRequest("myapp://user/42", params: ["tab": "likes"]), [:]),
            (RouteRequest("myapp://moments/7", source: .push), ["user": ["id": 3]]),
            (RouteRequest("myapp://order/AB123456"), ["app_version": "5.3.0", "user": ["id": 1]]),
            (RouteRequest("myapp://live/9"), ["user": ["id": 4, "age": 12], "hour": 23]),
            (RouteRequest("myapp://nothing?q=a%20b&x=\"y\""), [:]),
        ]
        var lines: [String] = []
        var expected: [String] = []
        for (request, context) in requests {
            let decision = decider.decide(request, context: ContextSnapshot(context))
            lines.append(try #require(decision.corpusLine(context: ContextSnapshot(context))))
            expected.append("\(request.url) → \(decision.summary)")
        }
        let result = try EvalCorpusTests.eval(lines.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == expected)
    }
}
