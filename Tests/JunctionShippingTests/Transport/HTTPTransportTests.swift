import Foundation
import Junction
import JunctionShipping
import JunctionTestSupport
import Testing

/// The HTTP transports against Debian's nginx on loopback: statuses, validators, the byte
/// cap, the deadline, a stopped server, cancellation and redirects — `URLSessionTransport`,
/// and on Linux `CurlTransport`, the one devices there use (``HTTPTransport``).
@Suite struct HTTPTransportTests {
    /// A transport under test.
    enum Kind: String, CaseIterable, Sendable {
        case urlSession
        #if os(Linux)
            case curl
        #endif

        func make() -> any UpdateTransport {
            switch self {
            case .urlSession: URLSessionTransport()
            #if os(Linux)
                case .curl: CurlTransport()
            #endif
            }
        }
    }

    /// A served folder with a small file and a 10 MB one.
    final class Site: Sendable {
        let root: String
        let server: NginxServer
        let transport: any UpdateTransport

        init(_ kind: Kind) throws {
            transport = kind.make()
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

    @Test(arguments: Kind.allCases)
    func aFileComesWithItsETagAndThe304WhenItIsSentBack(kind: Kind) async throws {
        let site = try Site(kind)
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

    @Test(
        arguments: Kind.allCases,
        [("/e404/x", 404, nil), ("/e500/x", 500, nil), ("/e503/x", 503, Duration.seconds(7))]
            as [(String, Int, Duration?)])
    func otherStatusesAreReturnedWithoutTheirBody(
        kind: Kind, expected: (path: String, status: Int, retryAfter: Duration?)
    )
        async throws
    {
        let (path, status, retryAfter) = expected
        let response = try await Site(kind).get(path)
        #expect(response.status == status)
        #expect(response.body.isEmpty)
        #expect(response.retryAfter == retryAfter)
    }

    @Test(arguments: Kind.allCases)
    func aBodyPastTheCapIsCutOneBytePastIt(kind: Kind) async throws {
        let site = try Site(kind)
        let clock = ContinuousClock()
        let started = clock.now
        let response = try await site.get("/big.bin", maximumBytes: 1_000)
        #expect(response.status == 200)
        #expect(response.body.count == 1_001)
        #expect(clock.now - started < .seconds(5))
    }

    @Test(arguments: Kind.allCases)
    func aDripIsCutAtTheDeadline(kind: Kind) async throws {
        let site = try Site(kind)
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

    @Test(arguments: Kind.allCases)
    func aStoppedServerCannotBeReached(kind: Kind) async throws {
        let site = try Site(kind)
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

    @Test(arguments: Kind.allCases)
    func cancellingTheTaskEndsTheExchangePromptly(kind: Kind) async throws {
        let site = try Site(kind)
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

    @Test(arguments: Kind.allCases)
    func otherSchemesAreRefused(kind: Kind) async throws {
        await #expect {
            _ = try await kind.make().send(
                TransportRequest(
                    url: URL(fileURLWithPath: "/etc/passwd"), maximumBytes: 10, deadline: .now + .seconds(1)))
        } throws: { error in
            (error as? UpdateTransportError)?.code == .unsupportedURL
        }
    }

    #if os(Linux)
        /// Regression: FoundationNetworking rewrote a redirect to `file:` or `data:` into a
        /// path on the same host, and followed it. libcurl follows `http` and `https` only.
        @Test(arguments: ["/to-file/x", "/to-data/x"])
        func aRedirectToAnotherSchemeIsRefused(path: String) async throws {
            await #expect {
                _ = try await Site(.curl).get(path)
            } throws: { error in
                (error as? UpdateTransportError)?.code == .unsupportedURL
            }
        }

        @Test func aRedirectOnTheSameHostIsFollowedAndALoopEndsAtItsOwnStatus() async throws {
            let site = try Site(.curl)
            let followed = try await site.get("/to-channel/x")
            #expect(followed.status == 200)
            #expect(followed.body == Array("hello, device".utf8))
            let loop = try await site.get("/loop/x")
            #expect(loop.status == 302)
            #expect(loop.body.isEmpty)
        }

        /// A body in another encoding is refused at its headers, unread: the transport asks
        /// for identity and never inflates (a gzip bomb is 1 GiB in 1 MB).
        @Test func anEncodedBodyIsRefusedUnread() async throws {
            await #expect {
                _ = try await Site(.curl).get("/gzip/x")
            } throws: { error in
                guard let error = error as? UpdateTransportError else { return false }
                return error.code == .badResponse && error.message.contains("Content-Encoding \"gzip\"")
            }
        }
    #endif
}
