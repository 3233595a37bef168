import Foundation
import Junction
import JunctionTestSupport
import Testing

/// The HTTP transport against Debian's nginx on loopback: statuses, validators, the byte
/// cap, the deadline, a stopped server and cancellation.
@Suite struct URLSessionTransportTests {
    /// A served folder with a small file and a 10 MB one.
    final class Site: Sendable {
        let root: String
        let server: NginxServer
        let transport = URLSessionTransport()

        init() throws {
            root =
                FileManager.default.temporaryDirectory.appendingPathComponent("junction-site-\(UUID().uuidString)")
                .path
            try FileManager.default.createDirectory(atPath: root + "/channels", withIntermediateDirectories: true)
            try Data("hello, device".utf8).write(to: URL(fileURLWithPath: root + "/channels/stable.json"))
            try Data(repeating: 0x61, count: 10_000_000).write(to: URL(fileURLWithPath: root + "/big.bin"))
            server = try NginxServer(root: root)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func get(_ path: String, ifNoneMatch: String? = nil, maximumBytes: Int = 1_000, within: Duration = .seconds(10))
            async throws(UpdateTransportError) -> TransportResponse
        {
            try await transport.send(
                TransportRequest(
                    url: server.url(path), ifNoneMatch: ifNoneMatch, maximumBytes: maximumBytes,
                    deadline: .now + within))
        }
    }

    @Test func aFileComesWithItsETagAndThe304WhenItIsSentBack() async throws {
        let site = try Site()
        let first = try await site.get("/channels/stable.json")
        #expect(first.status == 200)
        #expect(first.body == Array("hello, device".utf8))
        let etag = try #require(first.etag)
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))

        let again = try await site.get("/channels/stable.json", ifNoneMatch: etag)
        #expect(again.status == 304)
        #expect(again.body.isEmpty)

        // A changed file (another size, so another nginx ETag) is a 200 again.
        try Data("hello again, device".utf8).write(to: URL(fileURLWithPath: site.root + "/channels/stable.json"))
        let changed = try await site.get("/channels/stable.json", ifNoneMatch: etag)
        #expect(changed.status == 200)
        #expect(changed.body == Array("hello again, device".utf8))
        #expect(changed.etag != etag)
    }

    @Test(arguments: [("/e404/x", 404, nil), ("/e500/x", 500, nil), ("/e503/x", 503, Duration.seconds(7))])
    func otherStatusesAreReturnedWithoutTheirBody(path: String, status: Int, retryAfter: Duration?) async throws {
        let response = try await Site().get(path)
        #expect(response.status == status)
        #expect(response.body.isEmpty)
        #expect(response.retryAfter == retryAfter)
    }

    @Test func aBodyPastTheCapIsCutOneBytePastIt() async throws {
        let site = try Site()
        let clock = ContinuousClock()
        let started = clock.now
        let response = try await site.get("/big.bin", maximumBytes: 1_000)
        #expect(response.status == 200)
        #expect(response.body.count == 1_001)
        #expect(clock.now - started < .seconds(5))
    }

    @Test func aDripIsCutAtTheDeadline() async throws {
        let site = try Site()
        let clock = ContinuousClock()
        let started = clock.now
        await #expect {
            _ = try await site.get("/slow/big.bin", maximumBytes: 100_000, within: .seconds(1))
        } throws: { error in
            (error as? UpdateTransportError)?.code == .timedOut
        }
        let took = clock.now - started
        #expect(took >= .milliseconds(900) && took < .seconds(5), "\(took)")
    }

    @Test func aStoppedServerCannotBeReached() async throws {
        let site = try Site()
        site.server.stop()
        await #expect {
            _ = try await site.get("/channels/stable.json")
        } throws: { error in
            guard let error = error as? UpdateTransportError else { return false }
            return error.code == .cannotConnect && error.message.contains("/channels/stable.json")
        }
        try site.server.start()
        #expect(try await site.get("/channels/stable.json").status == 200)
    }

    @Test func cancellingTheTaskEndsTheExchangePromptly() async throws {
        let site = try Site()
        let clock = ContinuousClock()
        let started = clock.now
        let request = Task { try await site.get("/slow/big.bin", maximumBytes: 100_000, within: .seconds(60)) }
        try await Task.sleep(for: .milliseconds(300))
        request.cancel()
        guard case .failure(let error) = await request.result else {
            Issue.record("a cancelled drip answered")
            return
        }
        #expect((error as? UpdateTransportError)?.code == .cancelled, "\(error)")
        #expect(clock.now - started < .seconds(10))
    }

    @Test func otherSchemesAreRefused() async throws {
        await #expect {
            _ = try await URLSessionTransport().send(
                TransportRequest(
                    url: URL(fileURLWithPath: "/etc/passwd"), maximumBytes: 10, deadline: .now + .seconds(1)))
        } throws: { error in
            (error as? UpdateTransportError)?.code == .unsupportedURL
        }
    }
}
