import Foundation
import Junction
import JunctionShipping
import JunctionTestSupport
import Testing

/// The app's stated policy for an update past its expiry: keep deciding with it, or let the
/// embedded bundle decide — at launch and while running — without dropping the update.
@Suite struct StaleBundlePolicyTests {
    typealias Fixture = InstallerFixture

    /// Past both pointers' expiry (a week) and the artifacts' (a month).
    static let later = Fixture.now.addingTimeInterval(60 * 86_400)

    /// A store holding seq 5 (last-known-good) and seq 6 (current), both installed at `now`.
    static func installed(_ directory: String) async throws {
        let installer = try Fixture.launch(directory)
        await installer.install(
            pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
        await installer.install(
            pointer: Fixture.pointer6, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact6).fetch)
    }

    @Test(arguments: StaleBundlePolicy.allCases)
    func aStaleUpdateIsNeverDroppedFromTheStore(whenStale: StaleBundlePolicy) async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        try await Self.installed(directory)
        let restarted = try Fixture.launch(directory, at: Self.later, whenStale: whenStale)
        _ = await restarted.status(at: Self.later.addingTimeInterval(86_400))
        let state = BundleStore(directory: directory).load()
        #expect(state.current?.identity == Fixture.identity6)
        #expect(state.lastKnownGood?.identity == Fixture.identity5)
        #expect(state.ratchet == Fixture.identity6)
        #expect(await restarted.refused.isEmpty)
    }

    @Test func keepDecidingLaunchesTheStaleUpdate() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        try await Self.installed(directory)
        let restarted = try Fixture.launch(directory, at: Self.later, whenStale: .keepDeciding)
        #expect(restarted.policy.current.identity == Fixture.identity6)
        let status = await restarted.status(at: Self.later)
        #expect(status.description == "\(Fixture.identity6) from persisted: stale")
        #expect(status.setAside == nil)
        #expect(restarted.policy.current.origin == .persisted, "status changes nothing under keepDeciding")
    }

    @Test func fallBackToEmbeddedLaunchesTheEmbeddedBundleInPlaceOfTheStaleUpdate() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        try await Self.installed(directory)
        let log = CapturedLog()
        let restarted = try Fixture.launch(directory, at: Self.later, whenStale: .fallBackToEmbedded, log: log)
        #expect(restarted.policy.current.origin == .embedded)
        #expect(restarted.policy.current.identity == Fixture.embeddedIdentity)
        let status = await restarted.status(at: Self.later)
        #expect(
            status.description
                == "\(Fixture.embeddedIdentity) from embedded, in place of the stale \(Fixture.identity6): stale")
        #expect(status.setAside == Fixture.identity6)
        // The log first: events(count:) would wait for events that never come.
        try #require(log.messages.count == 2, "\(log.messages)")
        #expect(
            await BundleInstallerTests.events(restarted, count: 2) == [
                "set aside the stale update \(Fixture.identity6): the embedded bundle decides",
                "launched \(Fixture.embeddedIdentity) from embedded",
            ])
        #expect(
            log.entries.filter { $0.level == .warning }.map(\.message) == [
                "set aside the stale update \(Fixture.identity6): the embedded bundle decides"
            ])

        // A newer pointer, published after the expiry, installs as usual and is fresh.
        let artifact = ShippingFixture.artifact(
            ShippingFixture.previous, created: Self.later.addingTimeInterval(-60),
            expires: Self.later.addingTimeInterval(30 * 86_400))
        let pointer = ShippingFixture.pointer(
            for: artifact, seq: 7, created: Self.later.addingTimeInterval(-60),
            expires: Self.later.addingTimeInterval(7 * 86_400))
        let seq7 = UpdateIdentity(seq: 7, artifact: artifact)
        #expect(
            await restarted.install(pointer: pointer, at: Self.later, fetch: Fixture.Server(artifact).fetch)
                == .installed(seq7))
        #expect(await restarted.status(at: Self.later).description == "\(seq7) from update: ok")
        #expect(Fixture.decidesUnderSeq5(restarted.policy))
    }

    @Test func fallBackToEmbeddedActsWhenStatusFindsTheUpdatePastItsExpiryWhileRunning() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let log = CapturedLog()
        let installer = try Fixture.launch(directory, whenStale: .fallBackToEmbedded, log: log)
        await installer.install(
            pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
        let expires = await installer.status(at: Fixture.now).expires
        #expect(
            await installer.status(at: expires.addingTimeInterval(-1)).description
                == "\(Fixture.identity5) from update: ok")
        #expect(Fixture.decidesUnderSeq5(installer.policy))

        let status = await installer.status(at: expires)
        #expect(
            status.description
                == "\(Fixture.embeddedIdentity) from embedded, in place of the stale \(Fixture.identity5): stale")
        #expect(installer.policy.current.origin == .embedded)
        #expect(!Fixture.decidesUnderSeq5(installer.policy))
        // Asking again changes nothing more.
        let snapshot = installer.policy.current
        #expect(await installer.status(at: expires.addingTimeInterval(3_600)) == status)
        #expect(installer.policy.current === snapshot)
        try #require(log.messages.count == 3, "\(log.messages)")
        #expect(
            await BundleInstallerTests.events(installer, count: 3) == [
                "launched \(Fixture.embeddedIdentity) from embedded", "installed \(Fixture.identity5)",
                "set aside the stale update \(Fixture.identity5): the embedded bundle decides",
            ])
        // The update is held, not dropped: its own pointer is unchanged, and it stays persisted.
        let server = Fixture.Server(Fixture.artifact5)
        #expect(
            await installer.install(pointer: Fixture.pointer5, at: expires, fetch: server.fetch)
                == .unchanged(Fixture.identity5))
        #expect(server.count == 0)
        #expect(installer.policy.current === snapshot)
        #expect(BundleStore(directory: directory).load().current?.identity == Fixture.identity5)
    }

    @Test func keepDecidingLeavesTheUpdateDecidingWhenStatusFindsItStale() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let installer = try Fixture.launch(directory, whenStale: .keepDeciding)
        await installer.install(
            pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
        let expires = await installer.status(at: Fixture.now).expires
        #expect(await installer.status(at: expires).description == "\(Fixture.identity5) from update: stale")
        #expect(installer.policy.current.origin == .update)
        #expect(Fixture.decidesUnderSeq5(installer.policy))
    }
}
