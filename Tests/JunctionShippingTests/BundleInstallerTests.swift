import Foundation
import Junction
import JunctionShipping
import JunctionTestSupport
import Testing

/// The installer: launch order, install → persist → activate, refusals that leave the
/// active snapshot deciding and are remembered, status and events.
@Suite struct BundleInstallerTests {
    typealias Fixture = InstallerFixture

    struct Offline: Error, CustomStringConvertible {
        var description: String { "the network is unreachable" }
    }

    /// The events sent so far, without waiting for more.
    static func events(_ installer: BundleInstaller, count: Int) async -> [String] {
        var iterator = installer.events.makeAsyncIterator()
        var events: [String] = []
        for _ in 0..<count { if let event = await iterator.next() { events.append("\(event)") } }
        return events
    }

    @Test func launchesTheEmbeddedBundleWhenNothingIsPersisted() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let log = CapturedLog()
        let installer = try Fixture.launch(directory, log: log)
        #expect(installer.policy.current.origin == .embedded)
        #expect(installer.policy.current.identity == Fixture.embeddedIdentity)
        #expect(await installer.status(at: Fixture.now).description == "\(Fixture.embeddedIdentity) from embedded: ok")
        #expect(await Self.events(installer, count: 1) == ["launched \(Fixture.embeddedIdentity) from embedded"])
        #expect(log.messages == ["launched \(Fixture.embeddedIdentity) from embedded"])
    }

    @Test func anInstallPersistsAndARestartLaunchesItWithoutAPointer() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let installer = try Fixture.launch(directory)
        let before = installer.policy.current
        let event = await installer.install(
            pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
        #expect(event == .installed(Fixture.identity5))
        #expect(installer.policy.current !== before)
        #expect(installer.policy.current.origin == .update)
        #expect(Fixture.decidesUnderSeq5(installer.policy))

        let restarted = try Fixture.launch(directory, at: Fixture.now.addingTimeInterval(60))
        #expect(restarted.policy.current.origin == .persisted)
        #expect(restarted.policy.current.identity == Fixture.identity5)
        #expect(Fixture.decidesUnderSeq5(restarted.policy))
        #expect(
            await restarted.status(at: Fixture.now).description == "\(Fixture.identity5) from persisted: ok")
    }

    @Test func aDamagedCurrentLaunchesTheLastKnownGood() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let installer = try Fixture.launch(directory)
        await installer.install(
            pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
        await installer.install(
            pointer: Fixture.pointer6, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact6).fetch)
        #expect(await installer.status(at: Fixture.now).active == Fixture.identity6)
        // One flipped byte in the current update's artifact on disk.
        let path = directory + "/objects/\(Fixture.identity6.artifactSHA256).jbundle"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let restarted = try Fixture.launch(directory)
        #expect(restarted.policy.current.origin == .lastKnownGood)
        #expect(restarted.policy.current.identity == Fixture.identity5)
        #expect(Fixture.decidesUnderSeq5(restarted.policy))
    }

    /// Regression: an expired persisted update was refused `pointerExpired` at launch and
    /// dropped, though the device had verified it and nothing made it untrustworthy offline.
    @Test func anExpiredPersistedUpdateLaunchesStaleAndIsKept() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let installer = try Fixture.launch(directory)
        await installer.install(
            pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
        await installer.install(
            pointer: Fixture.pointer6, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact6).fetch)

        // Both pointers expire a week after `now`, the artifacts a month after: past both.
        let later = Fixture.now.addingTimeInterval(60 * 86_400)
        let log = CapturedLog()
        let restarted = try Fixture.launch(directory, at: later, log: log)
        #expect(restarted.policy.current.origin == .persisted)
        #expect(restarted.policy.current.identity == Fixture.identity6)
        #expect(await restarted.status(at: later).description == "\(Fixture.identity6) from persisted: stale")
        #expect(await Self.events(restarted, count: 1) == ["launched \(Fixture.identity6) from persisted"])
        #expect(log.entries.filter { $0.level >= .warning }.isEmpty)
        let state = BundleStore(directory: directory).load()
        #expect(state.current?.identity == Fixture.identity6)
        #expect(state.lastKnownGood?.identity == Fixture.identity5)
        #expect(state.ratchet == Fixture.identity6)
    }

    /// Regression: after a launch dropped a damaged current update, the ratchet still named
    /// it, so its own pointer read `unchanged` and the device never downloaded it again.
    @Test func thePointerOfAnUpdateDroppedAtLaunchInstallsItAgain() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let installer = try Fixture.launch(directory)
        await installer.install(
            pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
        await installer.install(
            pointer: Fixture.pointer6, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact6).fetch)
        let path = directory + "/objects/\(Fixture.identity6.artifactSHA256).jbundle"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let restarted = try Fixture.launch(directory)
        #expect(restarted.policy.current.origin == .lastKnownGood)
        // Still refused: a lower seq, and the dropped seq naming another artifact.
        let never = Fixture.Server(Fixture.artifact5)
        guard
            case .failed(.refused(let stale)) = await restarted.install(
                pointer: Fixture.pointer5, at: Fixture.now, fetch: never.fetch)
        else {
            Issue.record("seq 5 was not refused")
            return
        }
        #expect(stale.code == .staleSeq)
        let other = ShippingFixture.pointer(for: Fixture.artifact5, seq: 6)
        guard
            case .failed(.refused(let conflicting)) = await restarted.install(
                pointer: other, at: Fixture.now, fetch: never.fetch)
        else {
            Issue.record("seq 6 with another artifact was not refused")
            return
        }
        #expect(conflicting.code == .conflictingSeq)
        #expect(never.count == 0)

        // The same pointer again: downloaded, accepted, persisted over the damaged file.
        let server = Fixture.Server(Fixture.artifact6)
        let event = await restarted.install(pointer: Fixture.pointer6, at: Fixture.now, fetch: server.fetch)
        #expect(event == .installed(Fixture.identity6))
        #expect(server.count == 1)
        #expect(restarted.policy.current.identity == Fixture.identity6)
        #expect(!Fixture.decidesUnderSeq5(restarted.policy))
        // Now held: the same pointer is unchanged again.
        #expect(
            await restarted.install(pointer: Fixture.pointer6, at: Fixture.now, fetch: server.fetch)
                == .unchanged(Fixture.identity6))
        #expect(server.count == 1)
        let state = BundleStore(directory: directory).load()
        #expect(state.problems.isEmpty, "\(state.problems)")
        #expect(state.current?.identity == Fixture.identity6)
        #expect(state.lastKnownGood?.identity == Fixture.identity5)
        #expect(try Fixture.launch(directory).policy.current.origin == .persisted)
    }

    @Test func aRefusedUpdateLeavesThePreviousSnapshotDecidingAndIsNotRetried() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let installer = try Fixture.launch(directory)
        await installer.install(
            pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
        let active = installer.policy.current

        let forged = ShippingFixture.artifact(key: ShippingFixture.otherKey)
        let forgedPointer = ShippingFixture.pointer(for: forged, seq: 6)
        let forgedIdentity = UpdateIdentity(seq: 6, artifact: forged)
        let server = Fixture.Server(forged)
        let refused = await installer.install(pointer: forgedPointer, at: Fixture.now, fetch: server.fetch)
        guard case .failed(.refused(let refusal)) = refused else {
            Issue.record("expected a refusal, got \(refused)")
            return
        }
        #expect(refusal.code == .artifactRefused(.unknownKey))
        #expect(installer.policy.current === active)
        #expect(Fixture.decidesUnderSeq5(installer.policy))
        #expect(await installer.status(at: Fixture.now).condition == .failed(.refused(refusal)))
        #expect(await installer.refused == [forgedIdentity])
        #expect(BundleStore(directory: directory).load().failed == [forgedIdentity])

        // The same update again: refused without a fetch.
        let again = await installer.install(pointer: forgedPointer, at: Fixture.now, fetch: server.fetch)
        guard case .failed(.refused(let second)) = again else {
            Issue.record("expected a refusal, got \(again)")
            return
        }
        #expect(second.code == .previouslyFailed)
        #expect(server.count == 1)
        #expect(installer.policy.current === active)

        // A restart remembers it too.
        let restarted = try Fixture.launch(directory)
        #expect(await restarted.refused == [forgedIdentity])

        // A newer seq is tried, and goes in.
        let newer = ShippingFixture.pointer(for: Fixture.artifact6, seq: 7)
        let installed = await installer.install(
            pointer: newer, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact6).fetch)
        #expect(installed == .installed(UpdateIdentity(seq: 7, artifact: Fixture.artifact6)))
        #expect(!Fixture.decidesUnderSeq5(installer.policy))
        #expect(await installer.status(at: Fixture.now).condition == .ok)
    }

    @Test func statusGoesFromOkToFailedToOkToStale() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let installer = try Fixture.launch(directory)
        await installer.install(
            pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
        #expect(await installer.status(at: Fixture.now).description == "\(Fixture.identity5) from update: ok")

        let failed = await installer.install(pointer: Fixture.pointer6, at: Fixture.now) { _ in throw Offline() }
        #expect(failed == .failed(.fetchFailed(Fixture.identity6, "the network is unreachable")))
        #expect(
            await installer.status(at: Fixture.now).description
                == "\(Fixture.identity5) from update: failed(fetch failed for \(Fixture.identity6): the network is unreachable)"
        )
        #expect(await installer.refused.isEmpty, "a failed download is not the update's fault: it is tried again")

        await installer.install(
            pointer: Fixture.pointer6, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact6).fetch)
        let status = await installer.status(at: Fixture.now)
        #expect(status.description == "\(Fixture.identity6) from update: ok")
        // The pointer expires in a week, the artifact in a month: the earlier counts.
        #expect(status.expires == Fixture.now.addingTimeInterval(7 * 86_400))
        #expect(await installer.status(at: status.expires.addingTimeInterval(-1)).condition == .ok)
        #expect(await installer.status(at: status.expires).condition == .stale)
        #expect(Fixture.decidesUnderSeq5(installer.policy) == false, "a stale bundle keeps deciding")
    }

    @Test func thePointerOfTheActiveUpdateFetchesNothing() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let installer = try Fixture.launch(directory)
        await installer.install(
            pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
        let active = installer.policy.current
        let server = Fixture.Server(Fixture.artifact5)
        #expect(
            await installer.install(pointer: Fixture.pointer5, at: Fixture.now, fetch: server.fetch)
                == .unchanged(Fixture.identity5))
        #expect(server.count == 0)
        #expect(installer.policy.current === active)
    }

    @Test func anUpdateThatCannotBePersistedIsNotActivated() async throws {
        // A store whose parent directory does not exist: every write fails.
        let directory = Fixture.directory() + "/missing/store"
        let installer = try Fixture.launch(directory)
        let before = installer.policy.current
        let event = await installer.install(
            pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
        guard case .failed(.notPersisted(let identity, _)) = event else {
            Issue.record("expected notPersisted, got \(event)")
            return
        }
        #expect(identity == Fixture.identity5)
        #expect(installer.policy.current === before)
        #expect(await installer.refused.isEmpty, "tried again next time")
    }

    @Test func theKillSwitchActivatesTheEmbeddedBundle() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let installer = try Fixture.launch(directory)
        await installer.install(
            pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
        let pin = ShippingFixture.pointer(for: Fixture.artifact6, seq: 6, pinEmbedded: true)
        let server = Fixture.Server(Fixture.artifact6)
        let event = await installer.install(pointer: pin, at: Fixture.now, fetch: server.fetch)
        #expect(event == .pinnedEmbedded(Fixture.identity6))
        #expect(server.count == 0)
        #expect(installer.policy.current.origin == .embedded)
        #expect(!Fixture.decidesUnderSeq5(installer.policy))
        // The pin moved the ratchet: the update it replaced is not accepted again.
        let replay = await installer.install(
            pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
        guard case .failed(.refused(let refusal)) = replay else {
            Issue.record("expected a refusal, got \(replay)")
            return
        }
        #expect(refusal.code == .staleSeq)
    }

    @Test func eventsArriveInOrder() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let installer = try Fixture.launch(directory)
        var returned: [String] = []
        returned.append(
            "\(await installer.install(pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch))"
        )
        returned.append(
            "\(await installer.install(pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch))"
        )
        #expect(
            await Self.events(installer, count: 3) == [
                "launched \(Fixture.embeddedIdentity) from embedded", "installed \(Fixture.identity5)",
                "unchanged \(Fixture.identity5)",
            ])
        #expect(returned == ["installed \(Fixture.identity5)", "unchanged \(Fixture.identity5)"])
    }

    @Test func anUpdateOvertakenDuringItsFetchIsRefusedAsStale() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let installer = try Fixture.launch(directory)
        let (entered, enter) = AsyncStream.makeStream(of: Void.self)
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        let slow = Task {
            await installer.install(pointer: Fixture.pointer6, at: Fixture.now) { _ in
                enter.yield()
                for await _ in released { break }
                return Fixture.artifact6
            }
        }
        for await _ in entered { break }
        // While seq 6 downloads, seq 7 arrives and goes in.
        let seq7 = UpdateIdentity(seq: 7, artifact: Fixture.artifact6)
        let newer = await installer.install(
            pointer: ShippingFixture.pointer(for: Fixture.artifact6, seq: 7), at: Fixture.now,
            fetch: Fixture.Server(Fixture.artifact6).fetch)
        #expect(newer == .installed(seq7))
        release.yield()
        guard case .failed(.refused(let refusal)) = await slow.value else {
            Issue.record("seq 6 went in after seq 7")
            return
        }
        #expect(refusal.code == .staleSeq)
        #expect(installer.policy.current.identity == seq7)
        #expect(BundleStore(directory: directory).load().current?.identity == seq7)
    }

    @MainActor
    @Test func aRouterOnTheInstallersPolicyOpensUnderEachInstall() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let installer = try Fixture.launch(directory)
        let router = Router(policy: installer.policy)
        router.register(page: "legacy") { _ in "legacy page" }
        guard case .failed(let error) = await router.open("myapp://legacy") else {
            Issue.record("the embedded bundle has no legacy route")
            return
        }
        #expect(error.code == .unknownRoute)
        await installer.install(
            pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
        guard case .opened(let page) = await router.open("myapp://legacy") else {
            Issue.record("seq 5 routes legacy")
            return
        }
        #expect(page.content as? String == "legacy page")
        #expect(router.decider === installer.policy.current.decider)
    }
}
