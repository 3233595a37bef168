import Foundation
import Testing

/// Issue 30: `agent --context app_version=6.2` read the value as YAML — the number 6.2, so
/// a rule comparing versions failed — while `eval --context` read the text "6.2". Every
/// command that takes `--context` now types it with one parser, by the bundle's schema
/// where it declares one; the fixture's rule answers with each value it sees and its Lua
/// type, so each command's answer shows what it made of the argument.
@Suite struct ContextArgumentsTests {
    /// A command that takes `--context`, run on the fixture's `myapp://show`.
    enum Command: String, CaseIterable, Sendable {
        case eval, evalCorpus, diff, agent
    }

    /// One `--context` argument, with or without the schema, and what the rule sees.
    struct Row: CustomTestStringConvertible, Sendable {
        let schema: Bool
        let argument: String
        /// The answer's field for the key, and what it holds.
        let field: String
        let seen: String
        var testDescription: String { "\(argument) \(schema ? "with" : "without") a schema" }
    }

    static let rows = [
        Row(schema: true, argument: "app_version=6.2", field: "app_version", seen: "6.2 (string)"),
        Row(schema: true, argument: "app_version=6.1.0-beta.1", field: "app_version", seen: "6.1.0-beta.1 (string)"),
        Row(schema: true, argument: "device_id=123", field: "device_id", seen: "123 (string)"),
        Row(schema: true, argument: "hour=22", field: "hour", seen: "22 (integer)"),
        Row(schema: true, argument: "user.id=7", field: "user_id", seen: "7 (integer)"),
        Row(schema: true, argument: "roles=[admin, 5]", field: "roles", seen: "admin (string), 5 (string)"),
        Row(schema: false, argument: "app_version=6.2", field: "app_version", seen: "6.2 (float)"),
        Row(schema: false, argument: #"app_version="6.2""#, field: "app_version", seen: "6.2 (string)"),
        Row(schema: false, argument: "device_id=123", field: "device_id", seen: "123 (integer)"),
        Row(schema: false, argument: "device_id=abc", field: "device_id", seen: "abc (string)"),
    ]

    @Test(arguments: rows, Command.allCases)
    func everyCommandTypesAContextValueAlike(row: Row, command: Command) throws {
        let bundles = try Self.bundles(schema: row.schema)
        let run = try Self.run(command, bundles, context: row.argument)
        #expect(run.result.status == (command == .agent ? 3 : 0), "\(run.result.stderr)")
        #expect(run.answer?[row.field] == row.seen, "\(run.result.stdout.prefix(2_000))")
    }

    /// A value its declared type does not take is a usage error naming the option, the
    /// key and the type: exit 3 for eval and diff, 2 for agent, nothing decided.
    @Test(
        arguments: [
            ("hour=late", #"--context "hour=late": context hour is declared int, not late"#),
            ("flags.native_live=1", #"context flags.native_live is declared bool, not 1; write true or false"#),
            ("vip=true", #"context key "vip" is not declared in the manifest's context:"#),
        ], Command.allCases)
    func aValueTheSchemaDoesNotTakeIsAUsageError(bad: (argument: String, message: String), command: Command) throws {
        let (argument, message) = bad
        let run = try Self.run(command, try Self.bundles(schema: true), context: argument)
        #expect(run.result.status == (command == .agent ? 2 : 3))
        #expect(run.result.stderr.contains(message), "\(run.result.stderr)")
        #expect(run.answer == nil)
    }

    /// The agent types the values by the schema of the bundle active at each decision: an
    /// update whose schema does not take them decides nothing, and each URL's line says why.
    @Test func anAgentUpdateWhoseSchemaDoesNotTakeTheValuesDecidesNothing() throws {
        let device = try AgentCommandTests.Device()
        try device.publish(try ShippingFixtures.builds.thirtyDays)
        let (result, lines) = try device.agent([
            "--embedded", try CLIRunner.fixture("context-schema"), "--context", "roles=[admin]",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(AgentCommandTests.events(lines) == ["launched", "decision", "activated", "decision"])
        #expect((lines[1]["decision"] as? [String: Any])?["outcome"] as? String == "unmatched")
        #expect(lines[3]["decision"] == nil)
        #expect(
            lines[3]["error"] as? String
                == #"--context "roles=[admin]": context key "roles" is not declared in the manifest's context:; declare it there, or leave it out"#
        )
    }

    // MARK: - Running the commands

    /// The fixture (with or without its `context:`) and a copy whose answer also says
    /// `tonight`, for `diff` to find a change whose new decision shows the values.
    static func bundles(schema: Bool) throws -> (old: String, new: String) {
        let folder = try ShippingFixtures.folder()
        let old = folder + "/old"
        try FileManager.default.copyItem(atPath: try CLIRunner.fixture("context-schema"), toPath: old)
        if !schema {
            let manifest = old + "/manifest.yaml"
            let text = try String(contentsOfFile: manifest, encoding: .utf8)
            try String(text[..<text.range(of: "context:")!.lowerBound]).write(
                toFile: manifest, atomically: true, encoding: .utf8)
            // Its tests expect the schema's typing.
            try FileManager.default.removeItem(atPath: old + "/tests")
        }
        let new = folder + "/new"
        try FileManager.default.copyItem(atPath: old, toPath: new)
        let rules = new + "/rules.lua"
        try String(contentsOfFile: rules, encoding: .utf8)
            .replacingOccurrences(of: "source = req.source,", with: "source = req.source, tonight = \"yes\",")
            .write(toFile: rules, atomically: true, encoding: .utf8)
        return (old, new)
    }

    /// Runs `command` with `--context context`; the rule's answer, when it answered.
    static func run(_ command: Command, _ bundles: (old: String, new: String), context: String) throws -> (
        result: CLIRunner.Result, answer: [String: String]?
    ) {
        let corpus = try EvalCorpusTests.corpus("myapp://show\n")
        switch command {
        case .eval:
            let result = try CLIRunner.run([
                "eval", "myapp://show", "--bundle", bundles.old, "--json", "--context", context,
            ])
            return (result, Self.object(result.stdout)?["value"] as? [String: String])
        case .evalCorpus:
            let result = try CLIRunner.run([
                "eval", "--urls", corpus, "--bundle", bundles.old, "--json", "--context", context,
            ])
            return (result, Self.object(result.stdout)?["value"] as? [String: String])
        case .diff:
            let result = try CLIRunner.run([
                "diff", bundles.old, bundles.new, "--urls", corpus, "--format", "json", "--context", context,
            ])
            let kinds = Self.object(result.stdout)?["kinds"] as? [String: [String: Any]]
            let sample = (kinds?["response_changed"]?["samples"] as? [[String: Any]])?.first
            return (result, (sample?["new"] as? [String: Any])?["value"] as? [String: String])
        case .agent:
            let folder = try ShippingFixtures.folder()
            let key = try ShippingFixtures.writeKey(in: folder)
            // No channel there: the launch and its decision, then "unreachable" (exit 3).
            let result = try CLIRunner.run([
                "agent", "--channel", "file://\(folder)/site/channels/stable.json", "--pubkey", key + ".pub",
                "--state", folder + "/state", "--embedded", bundles.old, "--once", "--json",
                "--decide", "myapp://show", "--context", context,
            ])
            let decision = result.stdout.split(separator: "\n").compactMap { Self.object(String($0)) }
                .first { $0["event"] as? String == "decision" }
            return (result, (decision?["decision"] as? [String: Any])?["value"] as? [String: String])
        }
    }

    static func object(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
}
