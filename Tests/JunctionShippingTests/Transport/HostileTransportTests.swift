import Foundation
import Junction
import JunctionShipping
import JunctionTestSupport
import Testing

#if os(Linux)
    /// `CurlTransport` against a hostile host (a test double: nginx cannot misbehave on
    /// purpose). Starting the host blocks a thread for up to a second, so this suite runs in
    /// a pass of its own (scripts/test), where it cannot starve the deadlines of the suites
    /// against nginx; under the thread sanitizer too.
    @Suite struct HostileTransportTests {
        /// A hostile host (a test double: nginx cannot misbehave on purpose) answering with a
        /// 10 GiB `Content-Length`, an endless body or a gzip bomb: the exchange ends at the
        /// cap or at the headers, and the server's connection is closed — it could send
        /// nothing more. `AgentHostileHostTests` measures the agent's memory against the same.
        @Test(arguments: HostileHTTPServer.Attack.allCases)
        func aHostileBodyEndsTheExchangeAndItsConnection(attack: HostileHTTPServer.Attack) async throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("junction-hostile-\(UUID())").path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: root) }
            let server = try HostileHTTPServer(root: root, target: .pointer, attack: attack)
            let clock = ContinuousClock()
            let started = clock.now
            let result: Result<TransportResponse, UpdateTransportError>
            do {
                result = .success(
                    try await CurlTransport().send(
                        TransportRequest(
                            url: server.url("/channels/stable.json"), maximumBytes: 64 << 10,
                            deadline: .now + .seconds(5))))
            } catch {
                result = .failure(error)
            }
            #expect(clock.now - started < .seconds(6))
            switch (attack, result) {
            case (.gzip, .failure(let error)):
                #expect(error.code == .badResponse, "\(error)")
            case (.length, .success(let response)), (.endless, .success(let response)):
                #expect(response.status == 200 && response.body.count == (64 << 10) + 1)
            default:
                Issue.record("\(attack): \(result)")
            }
            var connections: [HostileHTTPServer.Connection] = []
            for _ in 0..<100 where connections.isEmpty {
                connections = server.connections()
                if connections.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
            }
            let connection = try #require(connections.first, "the attacked connection never ended")
            #expect(connection.sent < 64 << 20, "\(connection)")
        }
    }
#endif
