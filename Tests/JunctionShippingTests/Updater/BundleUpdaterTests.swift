import Foundation
import Junction
import JunctionShipping
import JunctionTestSupport
import Testing

/// The updater against a host in memory: what each poll comes to, what it downloads, what
/// it persists, and when it polls next.
@Suite struct BundleUpdaterTests {
    typealias Fixture = InstallerFixture

    @Test func activatesThenAnswersNotModifiedWithoutDownloadingAnything() async throws {
        let world = UpdaterFixture()
        world.host.publish(artifact: Fixture.artifact5, pointer: Fixture.pointer5)
        let updater = try world.launch()

        let first = await updater.checkNow()
        #expect(first.outcome == .activated(Fixture.identity5, .update))
        #expect(first.status.condition == .ok)
        #expect(Fixture.decidesUnderSeq5(updater.policy))

        world.host.clearLog()
        let second = await updater.checkNow()
        #expect(second.outcome == .unchanged(Fixture.identity5, .notModified))
        let requests = world.host.requests
        #expect(requests.count == 1, "one conditional GET of the pointer, no object: \(requests)")
        #expect(requests.first?.path == FakeHost.pointerPath)
        #expect(requests.first?.ifNoneMatch != nil)
        #expect(Fixture.decidesUnderSeq5(updater.policy))
    }

    @Test func aNewPointerActivatesWithinOnePollAndTheDecisionChanges() async throws {
        let world = UpdaterFixture()
        world.host.publish(artifact: Fixture.artifact5, pointer: Fixture.pointer5)
        let updater = try world.launch()
        #expect(await updater.checkNow().outcome == .activated(Fixture.identity5, .update))

        world.host.publish(artifact: Fixture.artifact6, pointer: Fixture.pointer6)
        world.host.clearLog()
        #expect(await updater.checkNow().outcome == .activated(Fixture.identity6, .update))
        #expect(!Fixture.decidesUnderSeq5(updater.policy))
        // The object is fetched with the pointer's length as its cap.
        let object = world.host.requests(under: "/junction/objects/")
        #expect(object.map(\.maximumBytes) == [Fixture.artifact6.count])
    }

    @Test func theETagSurvivesARestartSoTheFirstPollIsA304() async throws {
        let world = UpdaterFixture()
        world.host.publish(artifact: Fixture.artifact5, pointer: Fixture.pointer5)
        do {
            let updater = try world.launch()
            #expect(await updater.checkNow().outcome == .activated(Fixture.identity5, .update))
        }
        #expect(world.store.load().channelTag?.pointerSHA256 == ShippingFixture.hash(Fixture.pointer5))

        world.host.clearLog()
        let restarted = try world.launch()
        #expect(Fixture.decidesUnderSeq5(restarted.policy), "launched from the store, without the network")
        #expect(world.host.requests.isEmpty)
        #expect(await restarted.checkNow().outcome == .unchanged(Fixture.identity5, .notModified))
        #expect(world.host.requests.map(\.path) == [FakeHost.pointerPath])
    }

    @Test func aTagForAnotherPointerIsNotSent() async throws {
        let world = UpdaterFixture()
        world.host.publish(artifact: Fixture.artifact5, pointer: Fixture.pointer5)
        try world.store.commit(
            StoredUpdate(identity: Fixture.identity5, pointer: Fixture.pointer5, artifact: Fixture.artifact5))
        // A tag naming a pointer the device does not hold (the host's ETag for it matches).
        try world.store.rememberChannelTag(
            StoredChannelTag(etag: "\"v2-\(Fixture.pointer5.count)\"", pointerSHA256: String(repeating: "0", count: 64))
        )
        let updater = try world.launch()
        #expect(await updater.checkNow().outcome == .unchanged(Fixture.identity5, .sameUpdate))
        #expect(world.host.requests.first?.ifNoneMatch == nil)
        // Now the tag names the held pointer, and the next poll is conditional.
        #expect(world.store.load().channelTag?.pointerSHA256 == ShippingFixture.hash(Fixture.pointer5))
        #expect(await updater.checkNow().outcome == .unchanged(Fixture.identity5, .notModified))
    }

    /// What a fault of the host or of the update comes to once seq 5 is active: the kind of
    /// outcome and the code. Seq 5 keeps deciding, and no file of the store changes.
    struct Fault: Sendable, CustomTestStringConvertible {
        var name: String
        var prepare: @Sendable (FakeHost) -> Void
        var expected: FaultOutcome

        var testDescription: String { name }
    }

    static let object6 = FakeHost.objectPath(ShippingFixture.hash(Fixture.artifact6))

    static let faults: [Fault] = [
        Fault(
            name: "the pointer answers 500", prepare: { $0.fault(FakeHost.pointerPath, .status(500)) },
            expected: .unreachable(.status, status: 500)),
        Fault(
            name: "the pointer is gone (404)", prepare: { $0.remove(FakeHost.pointerPath) },
            expected: .unreachable(.status, status: 404)),
        Fault(
            name: "the host cannot be reached", prepare: { $0.fault(FakeHost.pointerPath, .error(.cannotConnect)) },
            expected: .unreachable(.cannotConnect)),
        Fault(
            name: "the pointer drips past the deadline", prepare: { $0.fault(FakeHost.pointerPath, .hang) },
            expected: .unreachable(.timedOut)),
        Fault(
            name: "the object is missing (404)", prepare: { $0.remove(object6) },
            expected: .unreachable(.status, status: 404)),
        Fault(
            name: "the object answers 503", prepare: { $0.fault(object6, .status(503)) },
            expected: .unreachable(.status, status: 503)),
        Fault(
            name: "the object drips past the deadline", prepare: { $0.fault(object6, .hang) },
            expected: .unreachable(.timedOut)),
        Fault(
            name: "a tampered object",
            prepare: {
                var bytes = Fixture.artifact6
                bytes[bytes.count / 2] ^= 0x01
                $0.put(object6, bytes)
            }, expected: .refused(.artifactHashMismatch)),
        Fault(
            name: "a truncated object", prepare: { $0.put(object6, Array(Fixture.artifact6.dropLast(100))) },
            expected: .refused(.artifactLengthMismatch)),
        Fault(
            name: "an object past the announced length", prepare: { $0.put(object6, Fixture.artifact6 + [0x0a]) },
            expected: .refused(.artifactLengthMismatch)),
        Fault(
            name: "a tampered pointer",
            prepare: {
                let text = String(decoding: Fixture.pointer6, as: UTF8.self)
                $0.put(FakeHost.pointerPath, Array(text.replacingOccurrences(of: "\"seq\":6", with: "\"seq\":9").utf8))
            }, expected: .refused(.pointerBadSignature)),
        Fault(
            name: "a replayed older pointer",
            prepare: { $0.put(FakeHost.pointerPath, ShippingFixture.pointer(for: Fixture.artifact6, seq: 4)) },
            expected: .refused(.staleSeq)),
        Fault(
            name: "a pointer past 16 KiB",
            prepare: { $0.put(FakeHost.pointerPath, Fixture.pointer6 + Array(repeating: 0x20, count: 16 << 10)) },
            expected: .refused(.pointerOversize)),
        Fault(
            name: "a pointer signed by an unknown key",
            prepare: {
                $0.put(
                    FakeHost.pointerPath,
                    ShippingFixture.pointer(for: Fixture.artifact6, seq: 6, key: ShippingFixture.otherKey))
            }, expected: .refused(.pointerUnknownKey)),
    ]

    @Test(arguments: faults)
    func aFaultLeavesTheActiveBundleDecidingAndNothingPersistedChanges(fault: Fault) async throws {
        let world = UpdaterFixture()
        world.host.publish(artifact: Fixture.artifact5, pointer: Fixture.pointer5)
        let updater = try world.launch()
        #expect(await updater.checkNow().outcome == .activated(Fixture.identity5, .update))
        let before = world.persisted()

        world.host.publish(artifact: Fixture.artifact6, pointer: Fixture.pointer6)
        fault.prepare(world.host)
        let poll = await updater.checkNow()
        #expect(fault.expected.matches(poll.outcome), "\(fault.name): \(poll.outcome), expected \(fault.expected)")
        #expect(Fixture.decidesUnderSeq5(updater.policy))
        #expect(world.persisted() == before, "the store's files changed")

        // A restart starts from exactly what it had.
        let restarted = try world.launch()
        #expect(await restarted.installer.status(at: world.now).active == Fixture.identity5)
        #expect(Fixture.decidesUnderSeq5(restarted.policy))
    }

    @Test func aRollbackIsTheOldArtifactUnderAHigherSeq() async throws {
        let world = UpdaterFixture()
        world.host.publish(artifact: Fixture.artifact6, pointer: Fixture.pointer6)
        let updater = try world.launch()
        #expect(await updater.checkNow().outcome == .activated(Fixture.identity6, .update))
        world.host.publish(
            artifact: Fixture.artifact5, pointer: ShippingFixture.pointer(for: Fixture.artifact5, seq: 7))
        #expect(
            await updater.checkNow().outcome == .activated(UpdateIdentity(seq: 7, artifact: Fixture.artifact5), .update)
        )
        #expect(Fixture.decidesUnderSeq5(updater.policy))
    }

    @Test func theKillSwitchPinsTheEmbeddedBundleUntilAHigherSeqLiftsIt() async throws {
        let world = UpdaterFixture()
        world.host.publish(artifact: Fixture.artifact5, pointer: Fixture.pointer5)
        let updater = try world.launch()
        #expect(await updater.checkNow().outcome == .activated(Fixture.identity5, .update))

        let pin = ShippingFixture.pointer(for: Fixture.artifact6, seq: 6, pinEmbedded: true)
        world.host.put(FakeHost.pointerPath, pin)
        world.host.clearLog()
        let pinned = await updater.checkNow()
        #expect(pinned.outcome == .activated(Fixture.identity6, .embedded))
        #expect(pinned.status.pinnedBy == Fixture.identity6)
        #expect(updater.policy.current.origin == .embedded)
        #expect(world.host.requests(under: "/junction/objects/").isEmpty, "a kill switch fetches nothing")
        #expect(await updater.checkNow().outcome == .unchanged(Fixture.identity6, .notModified))

        world.host.publish(
            artifact: Fixture.artifact5, pointer: ShippingFixture.pointer(for: Fixture.artifact5, seq: 7))
        #expect(
            await updater.checkNow().outcome == .activated(UpdateIdentity(seq: 7, artifact: Fixture.artifact5), .update)
        )
        #expect(Fixture.decidesUnderSeq5(updater.policy))
    }

    @Test func pastItsExpiryTheStatusIsStaleAndTheAppsPolicyApplies() async throws {
        for policy in StaleBundlePolicy.allCases {
            let world = UpdaterFixture()
            world.host.publish(artifact: Fixture.artifact5, pointer: Fixture.pointer5)
            let updater = try world.launch(whenStale: policy)
            #expect(await updater.checkNow().outcome == .activated(Fixture.identity5, .update))
            // The fixture's artifact expires 30 days after `now`.
            world.now = ShippingFixture.now.addingTimeInterval(31 * 86_400)
            let poll = await updater.checkNow()
            #expect(poll.outcome == .unchanged(Fixture.identity5, .notModified))
            #expect(poll.status.condition == .stale)
            #expect(Fixture.decidesUnderSeq5(updater.policy) == (policy == .keepDeciding), "\(policy)")
        }
    }

    // MARK: - When the next poll is

    @Test func failuresBackOffWithJitterAndASuccessReturnsToTheInterval() async throws {
        let world = UpdaterFixture()
        world.host.publish(artifact: Fixture.artifact5, pointer: Fixture.pointer5)
        world.host.fault(FakeHost.pointerPath, .error(.cannotConnect))
        let updater = try world.launch()
        let schedule = UpdaterFixture.configuration.backoff
        for failures in 1...6 {
            guard case .unreachable(_, let next) = await updater.checkNow().outcome else {
                Issue.record("expected unreachable")
                return
            }
            let wait = next.timeIntervalSince(world.now)
            let ceiling = Double(schedule.ceiling(afterFailures: failures).components.seconds)
            #expect(wait >= 0 && wait <= ceiling, "failure \(failures): waited \(wait) s, ceiling \(ceiling) s")
        }
        // The network is back: the app's checkNow polls at once, and the schedule resets.
        world.host.fault(FakeHost.pointerPath, nil)
        let clock = ContinuousClock()
        #expect(await updater.checkNow().outcome == .activated(Fixture.identity5, .update))
        let untilNext = await updater.nextAttempt - clock.now
        #expect(untilNext > .seconds(3_500) && untilNext <= .seconds(3_600))
        world.host.fault(FakeHost.pointerPath, .error(.cannotConnect))
        guard case .unreachable(_, let next) = await updater.checkNow().outcome else {
            Issue.record("expected unreachable")
            return
        }
        #expect(next.timeIntervalSince(world.now) <= 2, "the first failure after a success waits at most the base")
    }

    @Test(arguments: [(30, 30.0), (7_200, 3_600.0)])
    func retryAfterIsHonouredUpToItsCap(seconds: Int, expected: Double) async throws {
        let world = UpdaterFixture()
        world.host.fault(FakeHost.pointerPath, .status(503, retryAfter: .seconds(seconds)))
        let updater = try world.launch()
        guard case .unreachable(let error, let next) = await updater.checkNow().outcome else {
            Issue.record("expected unreachable")
            return
        }
        #expect(error.status == 503)
        #expect(next.timeIntervalSince(world.now) == expected)
    }

    @Test func backoffNeverWaitsLongerThanTheInterval() async throws {
        let world = UpdaterFixture()
        world.host.fault(FakeHost.pointerPath, .error(.cannotConnect))
        let updater = try world.launch(
            configuration: UpdaterConfiguration(
                interval: .seconds(5), intervalSpread: 0, attemptDeadline: .milliseconds(300),
                backoff: RetrySchedule(base: .seconds(2), cap: .seconds(300))))
        for _ in 1...12 {
            guard case .unreachable(_, let next) = await updater.checkNow().outcome else {
                Issue.record("expected unreachable")
                return
            }
            #expect(next.timeIntervalSince(world.now) <= 5)
        }
    }

    // MARK: - Concurrency and cancellation

    @Test func concurrentChecksShareOnePoll() async throws {
        let world = UpdaterFixture()
        world.host.fault(FakeHost.pointerPath, .hang)
        let updater = try world.launch()
        async let first = updater.checkNow()
        async let second = updater.checkNow()
        let (a, b) = await (first, second)
        #expect(a == b)
        #expect(world.host.requests.count == 1)
    }

    @Test func cancellingAPollEndsItPromptlyAndCountsNoFailure() async throws {
        let world = UpdaterFixture()
        world.host.fault(FakeHost.pointerPath, .hang)
        let updater = try world.launch(
            configuration: UpdaterConfiguration(interval: .seconds(3_600), attemptDeadline: .seconds(120)))
        let clock = ContinuousClock()
        let poll = Task { await updater.checkNow() }
        while world.host.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        // Timed from the cancel, not from the start: reaching the host waits behind the
        // rest of a loaded test run, which says nothing about cancelling.
        let started = clock.now
        poll.cancel()
        guard case .unreachable(let error, _) = await poll.value.outcome else {
            Issue.record("expected unreachable")
            return
        }
        #expect(error.code == .cancelled)
        #expect(clock.now - started < .seconds(30), "cancelled long before the 120 s deadline")
        #expect(await updater.nextAttempt <= clock.now, "a cancelled poll is not a failure to back off from")
    }

    /// A transport that answers `cancelled` while nobody cancelled the poll is a failure to
    /// back off from, not a reason to poll again at once.
    @Test func aCancelledAnswerNobodyAskedForBacksOff() async throws {
        let world = UpdaterFixture()
        world.host.fault(FakeHost.pointerPath, .error(.cancelled))
        let updater = try world.launch()
        var waits: [Double] = []
        for _ in 1...8 {
            guard case .unreachable(let error, let next) = await updater.checkNow().outcome else {
                Issue.record("expected unreachable")
                return
            }
            #expect(error.code == .cancelled)
            waits.append(next.timeIntervalSince(world.now))
        }
        // Full jitter up to 2, 4 … 256 s: all eight under half a second is out of reach.
        #expect(waits.contains { $0 > 0.5 }, "\(waits)")
    }

    @Test func startPollsAtTheIntervalUntilStopped() async throws {
        let world = UpdaterFixture()
        world.host.publish(artifact: Fixture.artifact5, pointer: Fixture.pointer5)
        let updater = try world.launch(
            configuration: UpdaterConfiguration(
                interval: .milliseconds(100), intervalSpread: 0, attemptDeadline: .seconds(5)))
        await updater.start()
        var outcomes: [UpdatePollOutcome] = []
        for await poll in updater.polls {
            outcomes.append(poll.outcome)
            if outcomes.count == 3 { break }
        }
        await updater.stop()
        #expect(
            outcomes == [
                .activated(Fixture.identity5, .update), .unchanged(Fixture.identity5, .notModified),
                .unchanged(Fixture.identity5, .notModified),
            ])
        let count = world.host.requests.count
        try await Task.sleep(for: .milliseconds(300))
        #expect(world.host.requests.count == count, "stopped: no more requests")
    }
}
