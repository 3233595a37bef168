import Foundation
import JunctionTestSupport
import Testing

/// `junction agent` against a host that attacks the download: a 10 GiB `Content-Length`, a
/// body that never ends, a gzip bomb — for the channel pointer and for the object. Each
/// exchange is refused at its cap or at its headers, the connection ends (no more bytes are
/// read), the device keeps deciding with what it had, and its peak memory stays within a
/// few MiB of an ordinary poll's. The red team measured 1.16 GB after every gzip bomb and
/// 11.4 GB, 39–49 s against `--deadline 5`, on some streaming runs.
@Suite(.serialized) struct AgentHostileHostTests {
    /// The agent's deadline per exchange.
    static let deadline = 5.0

    struct Run {
        var events: [[String: Any]]
        var seconds: Double
        /// Peak resident memory of the agent, in KiB.
        var peakKiB: Int
    }

    /// Runs `junction agent --once` under a wrapper that reports its peak resident memory.
    static func agent(channel: URL, key: String, state: String) throws -> Run {
        let wrapper = """
            import resource, subprocess, sys
            run = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE)
            sys.stdout.buffer.write(run.stdout)
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
            """
        let started = Date()
        let result = try CLIRunner.run(
            [
                "-c", wrapper, CLIRunner.executable.path, "agent", "--channel", channel.absoluteString, "--pubkey",
                key + ".pub", "--state", state, "--once", "--json", "--deadline", String(deadline), "--decide",
                "myapp://user/42",
            ], program: URL(fileURLWithPath: "/usr/bin/python3"))
        let seconds = Date().timeIntervalSince(started)
        let events = result.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let peak = Int(result.stderr.split(separator: "\n").last.map(String.init) ?? "") ?? Int.max
        return Run(events: events, seconds: seconds, peakKiB: peak)
    }

    /// A site with rules/example published, a key to verify it, and an ordinary poll's peak.
    static func site() throws -> (folder: String, key: String, site: String) {
        let folder = try ShippingFixtures.folder()
        let key = try ShippingFixtures.writeKey(in: folder)
        let site = folder + "/site"
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        let publish = try CLIRunner.run([
            "bundle", "publish", try ShippingFixtures.builds.thirtyDays, "--to", site, "--channel", "stable", "--key",
            key,
        ])
        #expect(publish.status == 0, "\(publish.stdout)\(publish.stderr)")
        return (folder, key, site)
    }

    @Test(arguments: HostileHTTPServer.Target.allCases, HostileHTTPServer.Attack.allCases)
    func aHostileDownloadEndsAtItsCapAndReadsNoMore(
        target: HostileHTTPServer.Target, attack: HostileHTTPServer.Attack
    ) throws {
        let (folder, key, site) = try Self.site()
        let nginx = try NginxServer(root: site)
        let ordinary = try Self.agent(
            channel: nginx.url("/channels/stable.json"), key: key, state: folder + "/ordinary")
        nginx.stop()
        #expect(ordinary.events.map { $0["event"] as? String } == ["launched", "decision", "activated", "decision"])

        let server = try HostileHTTPServer(root: site, target: target, attack: attack)
        let run = try Self.agent(channel: server.url("/channels/stable.json"), key: key, state: folder + "/device")
        let events = run.events.map { $0["event"] as? String }
        #expect(events.first == "launched")
        let poll = try #require(run.events.first { ["refused", "unreachable"].contains($0["event"] as? String) })
        let code = poll["code"] as? String
        if attack == .gzip {
            #expect(code == "badResponse", "\(poll)")
            #expect((poll["reason"] as? String)?.contains("Content-Encoding \"gzip\"") == true, "\(poll)")
        } else {
            #expect(code != nil && code != "timedOut" && code != "cancelled", "\(poll)")
        }
        // The device keeps deciding with what it had.
        #expect(events.last == "decision", "\(events)")
        #expect(run.seconds < Self.deadline + 1, "the agent took \(run.seconds) s")
        #expect(
            run.peakKiB < ordinary.peakKiB + 8 << 10,
            "peak RSS \(run.peakKiB) KiB against an ordinary poll's \(ordinary.peakKiB) KiB")

        // The attacked connection was closed: the server could not go on sending.
        var connections: [HostileHTTPServer.Connection] = []
        for _ in 0..<40 where connections.isEmpty {
            connections = server.connections()
            if connections.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        }
        server.stop()
        let connection = try #require(connections.first, "the attacked connection never ended")
        #expect(connection.seconds < Self.deadline + 1, "\(connection)")
        #expect(connection.sent < 64 << 20, "the server sent \(connection.sent) bytes: \(connection)")
    }
}
