import Foundation
import JunctionTestSupport
import JunctionCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `junction agent` as a running device against Debian's nginx: it takes what operations
/// publish within a poll, refuses a tampered upload while the last version keeps deciding,
/// and restarted without the network starts from what it had.
@Suite struct AgentNginxTests {
    /// A running `junction agent --json`, its output collected line by line.
    final class RunningAgent: Sendable {
        private let process: Process
        private let output = Locked<[String]>([])

        init(_ arguments: [String]) throws {
            process = Process()
            process.executableURL = CLIRunner.executable
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            let handle = pipe.fileHandleForReading
            // The thread holds the agent until the pipe closes: ``stop()`` ends both.
            let reader = Thread { [self] in
                var pending = ""
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    pending += String(decoding: data, as: UTF8.self)
                    while let end = pending.firstIndex(of: "\n") {
                        let line = String(pending[..<end])
                        pending = String(pending[pending.index(after: end)...])
                        self.output.withLock { $0.append(line) }
                    }
                }
            }
            try process.run()
            reader.start()
        }

        deinit { stop() }

        /// Every JSON line so far, parsed.
        var lines: [[String: Any]] {
            output.withLock { $0 }.map {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? ["unparsed": $0]
            }
        }

        /// Waits (up to 30 s) for a poll line whose event and seq are these; returns it and
        /// the decisions printed after it.
        func await(event: String, seq: Int) async throws -> (poll: [String: Any], decisions: [[String: Any]]) {
            for _ in 0..<300 {
                let all = lines
                if let index = all.firstIndex(where: { $0["event"] as? String == event && $0["seq"] as? Int == seq }),
                    all.count > index + 1
                {
                    return (all[index], Array(all[(index + 1)...].prefix { $0["event"] as? String == "decision" }))
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            throw Failure(description: "no \(event) of seq \(seq) in 30 s; the agent printed: \(lines)")
        }

        /// SIGKILL: a child of the test process may inherit a mask that blocks SIGTERM.
        func stop() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        struct Failure: Error, CustomStringConvertible {
            var description: String
        }
    }

    static func route(_ decision: [String: Any]) -> String? {
        ((decision["decision"] as? [String: Any])?["route"] as? String)
            ?? ((decision["decision"] as? [String: Any])?["outcome"] as? String)
    }

    @Test func aRunningAgentTakesEachPublishRefusesATamperedOneAndRestartsFromItsState() async throws {
        let folder = try ShippingFixtures.folder()
        let key = try ShippingFixtures.writeKey(in: folder)
        let site = folder + "/site"
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        let server = try NginxServer(root: site)
        func publish(_ artifact: String) throws {
            let result = try CLIRunner.run([
                "bundle", "publish", artifact, "--to", site, "--channel", "stable", "--key", key,
            ])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        }
        // v1: rules/example; v2: the same bundle with the user route renamed.
        let v1 = try ShippingFixtures.builds.thirtyDays
        let changed = try ShippingFixtures.exampleCopy()
        for file in try FileManager.default.subpathsOfDirectory(atPath: changed) {
            let path = changed + "/" + file
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            try text.replacingOccurrences(of: "user.profile", with: "user.page")
                .write(toFile: path, atomically: true, encoding: .utf8)
        }
        let v2 = folder + "/v2.jbundle"
        let build = try CLIRunner.run([
            "bundle", "build", changed, "--key", key, "-o", v2, "--created", ShippingFixtures.recent,
        ])
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")

        try publish(v1)
        let channel = server.url("/channels/stable.json").absoluteString
        let device = [
            "agent", "--channel", channel, "--pubkey", key + ".pub", "--state", folder + "/device", "--json",
            "--decide", "myapp://user/42",
        ]
        let agent = try RunningAgent(device + ["--interval", "0.2"])
        let first = try await agent.await(event: "activated", seq: 1)
        #expect(first.decisions.map(Self.route) == ["user.profile"])

        try publish(v2)
        let second = try await agent.await(event: "activated", seq: 2)
        #expect(second.decisions.map(Self.route) == ["user.page"], "the decision changed without a release")

        // v3 is published to a staging folder and uploaded with one byte of its object
        // changed — the object before the pointer, as publish writes them.
        let staging = folder + "/staging"
        try FileManager.default.copyItem(atPath: site, toPath: staging)
        let staged = try CLIRunner.run([
            "bundle", "publish", try ShippingFixtures.builds.twentyDays, "--to", staging, "--channel", "stable",
            "--key", key,
        ])
        #expect(staged.status == 0, "\(staged.stdout)\(staged.stderr)")
        let pointer = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: staging + "/channels/stable.json")))
        let sha256 = try #require(
            ((pointer as? [String: Any])?["signed"] as? [String: Any]).flatMap {
                ($0["artifact"] as? [String: Any])?["sha256"] as? String
            })
        var object = try ShippingFixtures.bytes(staging + "/objects/\(sha256).jbundle")
        object[object.count / 2] ^= 0x01
        try Data(object).write(to: URL(fileURLWithPath: site + "/objects/\(sha256).jbundle"))
        // The pointer by rename, a second after the one it replaces, as publish dates it
        // (nginx's ETag is the modification second and the size).
        let live = site + "/channels/stable.json"
        let previous = try FileManager.default.attributesOfItem(atPath: live)[.modificationDate] as? Date ?? Date()
        let upload = site + "/channels/.stable.json.upload"
        try Data(contentsOf: URL(fileURLWithPath: staging + "/channels/stable.json")).write(
            to: URL(fileURLWithPath: upload))
        try FileManager.default.setAttributes(
            [.modificationDate: max(Date(), previous.addingTimeInterval(1))], ofItemAtPath: upload)
        #expect(rename(upload, live) == 0)
        let refused = try await agent.await(event: "refused", seq: 3)
        #expect(refused.poll["code"] as? String == "artifactHashMismatch")
        #expect(refused.decisions.map(Self.route) == ["user.page"], "v2 keeps deciding")
        agent.stop()

        // Restarted with the server stopped: it starts from v2, without the network.
        server.stop()
        let restarted = try CLIRunner.run(device + ["--once"])
        #expect(restarted.status == 3, "\(restarted.stdout)\(restarted.stderr)")
        let lines = restarted.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        #expect(lines.map { $0["event"] as? String } == ["launched", "decision", "unreachable", "decision"])
        #expect(lines.first?["origin"] as? String == "persisted")
        #expect(lines.first?["seq"] as? Int == 2)
        #expect(lines.dropFirst().first.map(Self.route) == "user.page")
        #expect(lines.dropFirst(2).first?["code"] as? String == "cannotConnect")
    }
}
