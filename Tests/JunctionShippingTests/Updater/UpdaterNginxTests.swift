import Foundation
import Junction
import JunctionShipping
import JunctionTestSupport
import Testing

/// The updater against Debian's nginx on loopback, through `URLSessionTransport`: what a
/// device does as operations publish, break and roll back a channel, and that a restart
/// starts from exactly what it had.
@Suite struct UpdaterNginxTests {
    typealias Fixture = InstallerFixture

    // Three seconds for a poll: the suite's nine devices start their nginx and poll at once
    // beside two other suites, and one full run of scripts/test saw every first poll miss
    // a one-second deadline. The drip is a byte a second: it misses any deadline.
    static let configuration = UpdaterConfiguration(
        interval: .seconds(3_600), intervalSpread: 0, attemptDeadline: .seconds(3),
        backoff: RetrySchedule(base: .seconds(2), cap: .seconds(300)))

    /// A device with seq 5 active, and the site serving it.
    struct Device {
        let site: NginxSite
        let world: UpdaterFixture
        let updater: BundleUpdater

        init() async throws {
            site = try NginxSite()
            world = UpdaterFixture()
            try site.publish(artifact: Fixture.artifact5, pointer: Fixture.pointer5)
            updater = try world.launch(
                configuration: UpdaterNginxTests.configuration, channel: site.channel(),
                transport: HTTPTransport.make())
            let first = await updater.checkNow()
            #expect(first.outcome == .activated(Fixture.identity5, .update))
        }

        /// The same device restarted, on `channel` (the site's by default).
        func restart(channel: URL? = nil) throws -> BundleUpdater {
            try world.launch(
                configuration: UpdaterNginxTests.configuration, channel: channel ?? site.channel(),
                transport: HTTPTransport.make())
        }
    }

    @Test func publishedVersionsActivateWithinOnePollAndA304ChangesNothing() async throws {
        let device = try await Device()
        #expect(Fixture.decidesUnderSeq5(device.updater.policy))

        try device.site.publish(artifact: Fixture.artifact6, pointer: Fixture.pointer6)
        #expect(await device.updater.checkNow().outcome == .activated(Fixture.identity6, .update))
        #expect(!Fixture.decidesUnderSeq5(device.updater.policy), "the decision changed with v2")

        let mark = device.site.server.requests.count
        let persisted = device.world.persisted()
        #expect(await device.updater.checkNow().outcome == .unchanged(Fixture.identity6, .notModified))
        #expect(
            device.site.requests(since: mark).map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
                == ["GET /channels/stable.json 304"])
        #expect(device.world.persisted() == persisted)

        // Restarted: from the store without the network, then one 304.
        let restarted = try device.restart()
        #expect(!Fixture.decidesUnderSeq5(restarted.policy))
        #expect(await restarted.checkNow().outcome == .unchanged(Fixture.identity6, .notModified))
    }

    /// A fault of the host or of what it serves: what the poll comes to.
    struct Fault: Sendable, CustomTestStringConvertible {
        var name: String
        /// Breaks the site (v6 is published first); returns the channel prefix to poll.
        var prepare: @Sendable (NginxSite) throws -> String
        var expected: FaultOutcome

        var testDescription: String { name }
    }

    static let faults: [Fault] = [
        Fault(
            name: "a tampered object",
            prepare: { site in
                var bytes = Fixture.artifact6
                bytes[bytes.count / 3] ^= 0x04
                try site.write(bytes, to: site.objectPath(Fixture.artifact6))
                return ""
            }, expected: .refused(.artifactHashMismatch)),
        Fault(
            name: "a truncated object",
            prepare: { site in
                try site.write(Array(Fixture.artifact6.prefix(1_000)), to: site.objectPath(Fixture.artifact6))
                return ""
            }, expected: .refused(.artifactLengthMismatch)),
        Fault(
            name: "an object past the length the pointer states",
            prepare: { site in
                try site.write(
                    Fixture.artifact6 + Array(repeating: 0, count: 5_000_000), to: site.objectPath(Fixture.artifact6))
                return ""
            }, expected: .refused(.artifactLengthMismatch)),
        Fault(
            name: "a tampered pointer",
            prepare: { site in
                let text = String(decoding: Fixture.pointer6, as: UTF8.self)
                try site.writePointer(Array(text.replacingOccurrences(of: "\"seq\":6", with: "\"seq\":7").utf8))
                return ""
            }, expected: .refused(.pointerBadSignature)),
        Fault(
            name: "a replayed older pointer",
            prepare: { site in
                try site.writePointer(ShippingFixture.pointer(for: Fixture.artifact6, seq: 4))
                return ""
            }, expected: .refused(.staleSeq)),
        Fault(name: "a 500", prepare: { _ in "/e500" }, expected: .unreachable(.status, status: 500)),
        Fault(name: "a 404", prepare: { _ in "/e404" }, expected: .unreachable(.status, status: 404)),
        Fault(name: "a drip past the deadline", prepare: { _ in "/slow" }, expected: .unreachable(.timedOut)),
        Fault(
            name: "the server stopped",
            prepare: { site in
                site.server.stop()
                return ""
            }, expected: .unreachable(.cannotConnect)),
    ]

    @Test(arguments: faults)
    func aFaultChangesNothingAndARestartStartsFromWhatItHad(fault: Fault) async throws {
        let device = try await Device()
        try device.site.publish(artifact: Fixture.artifact6, pointer: Fixture.pointer6)
        let persisted = device.world.persisted()
        let prefix = try fault.prepare(device.site)
        let updater = prefix.isEmpty ? device.updater : try device.restart(channel: device.site.channel(prefix))
        let poll = await updater.checkNow()
        #expect(fault.expected.matches(poll.outcome), "\(fault.name): \(poll.outcome), expected \(fault.expected)")
        #expect(Fixture.decidesUnderSeq5(updater.policy), "seq 5 keeps deciding")
        #expect(device.world.persisted() == persisted, "nothing persisted changed")

        let restarted = try device.restart()
        #expect(await restarted.installer.status(at: device.world.now).active == Fixture.identity5)
        #expect(Fixture.decidesUnderSeq5(restarted.policy))
    }

    @Test func aRollbackAndAKillSwitchReachTheDeviceAndARestartKeepsThem() async throws {
        let device = try await Device()
        try device.site.publish(artifact: Fixture.artifact6, pointer: Fixture.pointer6)
        #expect(await device.updater.checkNow().outcome == .activated(Fixture.identity6, .update))

        // The rollback: seq 5's artifact again, under seq 7.
        let rollback = UpdateIdentity(seq: 7, artifact: Fixture.artifact5)
        try device.site.writePointer(ShippingFixture.pointer(for: Fixture.artifact5, seq: 7))
        #expect(await device.updater.checkNow().outcome == .activated(rollback, .update))
        #expect(Fixture.decidesUnderSeq5(device.updater.policy))
        #expect(Fixture.decidesUnderSeq5(try device.restart().policy))

        // The kill switch: the embedded bundle decides, across a restart, until lifted.
        let pin = UpdateIdentity(seq: 8, artifact: Fixture.artifact6)
        try device.site.writePointer(ShippingFixture.pointer(for: Fixture.artifact6, seq: 8, pinEmbedded: true))
        #expect(await device.updater.checkNow().outcome == .activated(pin, .embedded))
        #expect(device.updater.policy.current.origin == .embedded)
        let pinned = try device.restart()
        #expect(pinned.policy.current.origin == .embedded)
        #expect(await pinned.checkNow().outcome == .unchanged(pin, .notModified))

        try device.site.writePointer(ShippingFixture.pointer(for: Fixture.artifact6, seq: 9))
        #expect(
            await pinned.checkNow().outcome == .activated(UpdateIdentity(seq: 9, artifact: Fixture.artifact6), .update))
        #expect(!Fixture.decidesUnderSeq5(pinned.policy))
        #expect(try device.restart().policy.current.origin == .persisted)
    }
}
