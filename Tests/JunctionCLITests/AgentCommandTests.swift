import Foundation
import JunctionArtifact
import Testing

/// `junction agent` on `file://` channels: the events it prints, its exit codes, and a
/// restart from its state folder. (Against nginx: `AgentNginxTests`.)
@Suite struct AgentCommandTests {
    /// A site published with `junction bundle publish`, a device state folder, and the
    /// public key the device trusts.
    struct Device {
        let folder: String
        let key: String
        var site: String { folder + "/site" }
        var state: String { folder + "/state" }
        var channel: String { "file://" + site + "/channels/stable.json" }

        init() throws {
            folder = try ShippingFixtures.folder()
            key = try ShippingFixtures.writeKey(in: folder)
        }

        func publish(_ artifact: String, _ options: [String] = []) throws {
            let result = try CLIRunner.run(
                ["bundle", "publish", artifact, "--to", site, "--channel", "stable", "--key", key] + options)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        }

        func agent(_ options: [String] = [], channel: String? = nil) throws -> (CLIRunner.Result, [[String: Any]]) {
            let result = try CLIRunner.run(
                [
                    "agent", "--channel", channel ?? self.channel, "--pubkey", key + ".pub", "--state", state, "--once",
                    "--json", "--decide", "myapp://user/42",
                ] + options)
            let lines = result.stdout.split(separator: "\n").map {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? ["unparsed": String($0)]
            }
            return (result, lines)
        }

        /// The SHA-256 the channel's pointer names.
        func announced() throws -> String {
            try ChannelPointer(
                verifying: ShippingFixtures.bytes(site + "/channels/stable.json"),
                keyring: Keyring([ShippingFixtures.key.publicKey])
            ).artifactSHA256
        }
    }

    static func events(_ lines: [[String: Any]]) -> [String] { lines.compactMap { $0["event"] as? String } }

    @Test func onceActivatesThenIsUnchangedAndARestartStartsFromTheStore() throws {
        let device = try Device()
        try device.publish(try ShippingFixtures.builds.thirtyDays)
        let (first, lines) = try device.agent()
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(Self.events(lines) == ["launched", "decision", "activated", "decision"])
        #expect(lines[0]["origin"] as? String == "embedded")
        #expect(lines[0]["seq"] as? Int == 0)
        #expect((lines[1]["decision"] as? [String: Any])?["outcome"] as? String == "unmatched")
        #expect(lines[2]["seq"] as? Int == 1)
        #expect(lines[2]["origin"] as? String == "update")
        #expect(lines[2]["sha256"] as? String == (try device.announced()))
        #expect(lines[2]["status"] as? String == "ok")
        let decision = lines[3]["decision"] as? [String: Any]
        #expect(decision?["outcome"] as? String == "open")
        #expect(decision?["route"] as? String == "user.profile")

        let (second, again) = try device.agent()
        #expect(second.status == 0)
        #expect(Self.events(again) == ["launched", "decision", "unchanged", "decision"])
        #expect(again[0]["origin"] as? String == "persisted")
        #expect(again[0]["seq"] as? Int == 1)
        #expect((again[1]["decision"] as? [String: Any])?["route"] as? String == "user.profile")
        #expect(again[2]["reason"] as? String == "same update")
    }

    @Test func aTamperedObjectIsRefusedAndTheActiveBundleKeepsDeciding() throws {
        let device = try Device()
        try device.publish(try ShippingFixtures.builds.thirtyDays)
        #expect(try device.agent().0.status == 0)
        try device.publish(try ShippingFixtures.builds.twentyDays)
        let object = device.site + "/objects/" + (try device.announced()) + ".jbundle"
        var bytes = try ShippingFixtures.bytes(object)
        bytes[bytes.count / 2] ^= 0x20
        try Data(bytes).write(to: URL(fileURLWithPath: object))

        let (result, lines) = try device.agent()
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(Self.events(lines) == ["launched", "decision", "refused", "decision"])
        #expect(lines[2]["seq"] as? Int == 2)
        #expect(lines[2]["code"] as? String == "artifactHashMismatch")
        #expect((lines[2]["reason"] as? String)?.contains("the artifact's SHA-256 is") == true)
        #expect((lines[2]["active"] as? [String: Any])?["seq"] as? Int == 1)
        #expect((lines[3]["decision"] as? [String: Any])?["route"] as? String == "user.profile")
    }

    @Test func aChannelThatIsNotThereIsUnreachableAndTheEmbeddedFolderDecides() throws {
        let device = try Device()
        let (result, lines) = try device.agent(
            ["--embedded", CLIRunner.repositoryRoot.appendingPathComponent("rules/example").path])
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(Self.events(lines) == ["launched", "decision", "unreachable", "decision"])
        #expect(lines[0]["origin"] as? String == "embedded")
        #expect((lines[1]["decision"] as? [String: Any])?["route"] as? String == "user.profile")
        #expect(lines[2]["code"] as? String == "notFound")
        #expect(lines[2]["next_attempt"] is String)
    }

    @Test func aDeviceOutsideTheRolloutStaysWhereItIs() throws {
        let device = try Device()
        try device.publish(try ShippingFixtures.builds.thirtyDays, ["--rollout", "0"])
        let (result, lines) = try device.agent(["--install-id", "device-1"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(Self.events(lines) == ["launched", "decision", "unchanged", "decision"])
        #expect(lines[2]["reason"] as? String == "not in the rollout (0%)")
        #expect((lines[2]["active"] as? [String: Any])?["seq"] as? Int == 0)
    }

    @Test(arguments: [
        (["--pubkey", "/nonexistent/key.pub"], "--pubkey /nonexistent/key.pub"),
        (["--embedded", "/nonexistent/bundle"], "--embedded /nonexistent/bundle"),
        (["--context", "novalue"], "--context"),
    ])
    func optionsThatCannotBeUsedExit2(options: [String], message: String) throws {
        let result = try CLIRunner.run(try Self.arguments(replacing: options))
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    // ArgumentParser reads the values: a refused one is its usage error, the option, the
    // value and the reason on the first line.
    @Test(arguments: [
        (
            ["--channel", "ftp://example.com/channels/stable.json"],
            "Error: The value 'ftp://example.com/channels/stable.json' is invalid for '--channel <url>': ftp://example.com/channels/stable.json: a channel URL is https, http or file"
        ),
        (
            ["--channel", "https://example.com/stable.json"],
            "Error: The value 'https://example.com/stable.json' is invalid for '--channel <url>': https://example.com/stable.json: a channel URL ends in /<folder>/<channel>.json (…/channels/stable.json), with objects/ beside the folder"
        ),
        (
            ["--interval", "soon"],
            "Error: The value 'soon' is invalid for '--interval <seconds>': not a number of seconds from 0 to 86400 (0.5)"
        ),
        (["--deadline", "0"], "Error: --deadline must be more than 0 seconds"),
        (
            ["--host-version", "six"],
            #"Error: The value 'six' is invalid for '--host-version <version>': "six" is not a version: expected a number at byte 1, found "s"; versions read like 6.2, v6.0.1, 6.0.1-beta.2 or 6.0.1 (1234)"#
        ),
        (
            ["--install-id", ""],
            "Error: The value '' is invalid for '--install-id <id>': not 1 to 128 visible ASCII characters"
        ),
    ])
    func valuesAnOptionDoesNotTakeAreUsageErrors(options: [String], message: String) throws {
        let result = try CLIRunner.run(try Self.arguments(replacing: options))
        #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
        #expect(result.errorLine == message)
    }

    /// `agent --once` on a fresh device, with `options` in place of (or added to) its own.
    static func arguments(replacing options: [String]) throws -> [String] {
        let device = try Device()
        var arguments = [
            "agent", "--channel", device.channel, "--pubkey", device.key + ".pub", "--state", device.state,
            "--once",
        ]
        for pair in stride(from: 0, to: options.count, by: 2) {
            if let index = arguments.firstIndex(of: options[pair]) {
                arguments[index + 1] = options[pair + 1]
            } else {
                arguments += [options[pair], options[pair + 1]]
            }
        }
        return arguments
    }
}
