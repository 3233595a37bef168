import Foundation
import Junction
import JunctionShipping
import JunctionTestSupport
import Testing

/// The kill switch (`pin_embedded`) across restarts: persisted with its exact bytes,
/// honoured at launch, lifted by a higher seq, the updates kept meanwhile.
@Suite struct KillSwitchTests {
    typealias Fixture = InstallerFixture

    static let pin6 = ShippingFixture.pointer(for: Fixture.artifact6, seq: 6, pinEmbedded: true)

    /// Regression: the pin moved only the in-memory ratchet, so a restart launched the
    /// update it had killed.
    @Test func aRestartHonoursThePersistedPin() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let installer = try Fixture.launch(directory)
        await installer.install(
            pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
        #expect(
            await installer.install(pointer: Self.pin6, at: Fixture.now, fetch: Fixture.Server([]).fetch)
                == .pinnedEmbedded(Fixture.identity6))
        #expect(
            await installer.status(at: Fixture.now).description
                == "\(Fixture.embeddedIdentity) from embedded, pinned by \(Fixture.identity6): ok")

        let log = CapturedLog()
        let restarted = try Fixture.launch(directory, log: log)
        #expect(restarted.policy.current.origin == .embedded)
        #expect(!Fixture.decidesUnderSeq5(restarted.policy))
        let status = await restarted.status(at: Fixture.now)
        #expect(status.pinnedBy == Fixture.identity6)
        #expect(
            status.description == "\(Fixture.embeddedIdentity) from embedded, pinned by \(Fixture.identity6): ok")
        let events = [
            "pinned the embedded bundle by \(Fixture.identity6)",
            "launched \(Fixture.embeddedIdentity) from embedded",
        ]
        // The log first: events(count:) would wait for events that never come.
        try #require(log.messages == events)
        #expect(await BundleInstallerTests.events(restarted, count: 2) == events)
        let state = BundleStore(directory: directory).load()
        #expect(state.pin == StoredPin(identity: Fixture.identity6, pointer: Self.pin6))
        #expect(state.current?.identity == Fixture.identity5, "kept while pinned")
        #expect(state.ratchet == Fixture.identity6)

        // The same pin again: nothing to do; the killed update's pointer: a replay.
        let server = Fixture.Server(Fixture.artifact5)
        #expect(
            await restarted.install(pointer: Self.pin6, at: Fixture.now, fetch: server.fetch)
                == .unchanged(Fixture.identity6))
        guard
            case .failed(.refused(let refusal)) = await restarted.install(
                pointer: Fixture.pointer5, at: Fixture.now, fetch: server.fetch)
        else {
            Issue.record("the killed update's pointer was not refused")
            return
        }
        #expect(refusal.code == .staleSeq)
        #expect(server.count == 0)
    }

    @Test func aHigherSeqLiftsThePinAcrossRestarts() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let installer = try Fixture.launch(directory)
        await installer.install(
            pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
        await installer.install(pointer: Self.pin6, at: Fixture.now, fetch: Fixture.Server([]).fetch)

        // Lifting the pin: the old artifact again, under a higher seq.
        let restarted = try Fixture.launch(directory)
        let lift = ShippingFixture.pointer(for: Fixture.artifact5, seq: 7)
        let seq7 = UpdateIdentity(seq: 7, artifact: Fixture.artifact5)
        #expect(
            await restarted.install(pointer: lift, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
                == .installed(seq7))
        #expect(Fixture.decidesUnderSeq5(restarted.policy))
        let status = await restarted.status(at: Fixture.now)
        #expect(status.pinnedBy == nil)
        #expect(status.description == "\(seq7) from update: ok")

        let again = try Fixture.launch(directory)
        #expect(again.policy.current.origin == .persisted)
        #expect(again.policy.current.identity == seq7)
        let state = BundleStore(directory: directory).load()
        #expect(state.pin == nil)
        #expect(state.lastKnownGood?.identity == Fixture.identity5)
        #expect(state.problems.isEmpty, "\(state.problems)")
    }

    @Test func aPinThatCannotBePersistedStillStopsTheUpdateNow() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let installer = try Fixture.launch(directory)
        await installer.install(
            pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
        // The store's state file becomes a directory: every write of the state fails.
        let statePath = directory + "/state.json"
        try FileManager.default.removeItem(atPath: statePath)
        try FileManager.default.createDirectory(atPath: statePath, withIntermediateDirectories: false)
        let event = await installer.install(pointer: Self.pin6, at: Fixture.now, fetch: Fixture.Server([]).fetch)
        guard case .failed(.notPersisted(let identity, let error)) = event else {
            Issue.record("expected notPersisted, got \(event)")
            return
        }
        #expect(identity == Fixture.identity6)
        // Read, the directory is damage the store falls back from; written, it cannot be replaced.
        #expect(error.description.contains("rename \(statePath).tmp to \(statePath): "), "\(error)")
        #expect(installer.policy.current.origin == .embedded)
        #expect(!Fixture.decidesUnderSeq5(installer.policy))
        let status = await installer.status(at: Fixture.now)
        #expect(status.pinnedBy == Fixture.identity6)
        #expect(status.condition == .failed(.notPersisted(Fixture.identity6, error)))
    }

    @Test func aPersistedPinOfAnotherChannelIsIgnoredAndReported() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let installer = try Fixture.launch(directory)
        await installer.install(pointer: Self.pin6, at: Fixture.now, fetch: Fixture.Server([]).fetch)
        var policy = ShippingFixture.policy
        policy.channel = "beta"
        let log = CapturedLog()
        let restarted = try Fixture.launch(directory, acceptance: UpdateAcceptance(policy: policy), log: log)
        try #require(log.messages.count == 2, "\(log.messages)")
        #expect(restarted.policy.current.origin == .embedded)
        #expect(await restarted.status(at: Fixture.now).pinnedBy == nil)
        #expect(
            await BundleInstallerTests.events(restarted, count: 2) == [
                "ignored the persisted kill switch: wrongChannel: the persisted pointer is of channel \"stable\"; this device follows \"beta\"",
                "launched \(Fixture.embeddedIdentity) from embedded",
            ])
    }
}
