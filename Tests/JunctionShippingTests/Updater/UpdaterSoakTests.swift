import Foundation
import Junction
import JunctionShipping
import JunctionTestSupport
import JunctionCore
import Testing

/// A soak against nginx: 20 devices, each an updater with its own store, poll every 100 ms
/// while 50 versions are published, every fourth of them corrupted in one of four ways.
/// Every device ends on the last good version, and none ever activates a corrupted one.
/// `scripts/test` runs it alone: 20 devices accepting bundles keep both cores busy.
@Suite struct UpdaterSoakTests {
    static let devices = 20
    static let versions = 50

    /// How a published version is broken, if it is.
    enum Corruption: CaseIterable, Sendable {
        /// Its object's bytes changed on the server: the hash refuses it, and it is retried.
        case tamperedObject
        /// Its pointer is signed by a key the devices do not trust.
        case untrustedPointer
        /// Its artifact is signed by a key the devices do not trust: refused and remembered.
        case untrustedArtifact
        /// Its bundle's own tests fail on the device: refused and remembered.
        case failingSelfTest
    }

    /// Version `index` (from 1) as published: its pointer, the object served, the identity
    /// it announces, and its corruption.
    struct Version {
        var pointer: [UInt8]
        var artifact: [UInt8]
        var served: [UInt8]
        var identity: UpdateIdentity
        var corruption: Corruption?

        init(_ index: Int) {
            let seq = UInt64(index)
            // Every fourth version but the last, the four corruptions in turn.
            let corruption =
                index % 4 == 2 && index < UpdaterSoakTests.versions ? Corruption.allCases[(index / 4) % 4] : nil
            switch corruption {
            case .untrustedArtifact:
                artifact = ShippingFixture.artifact(version: "1.5.\(index)", key: ShippingFixture.otherKey)
            case .failingSelfTest:
                artifact = ShippingFixture.artifact(
                    DeviceFaultCases.withPolicies("group(\"login\", function(req, ctx) return nil end)\n"),
                    version: "1.5.\(index)")
            default:
                artifact = ShippingFixture.artifact(version: "1.5.\(index)")
            }
            served = artifact
            if corruption == .tamperedObject { served[served.count / 2] ^= 0x10 }
            pointer = ShippingFixture.pointer(
                for: artifact, seq: seq,
                key: corruption == .untrustedPointer ? ShippingFixture.otherKey : ShippingFixture.key)
            identity = UpdateIdentity(seq: seq, artifact: artifact)
            self.corruption = corruption
        }
    }

    @Test func everyDeviceEndsOnTheLastGoodVersionAndNoneActivatesACorruptedOne() async throws {
        let versions = (1...Self.versions).map(Version.init)
        let corrupted = Set(versions.filter { $0.corruption != nil }.map(\.identity))
        let last = try #require(versions.last)
        #expect(last.corruption == nil)
        #expect(corrupted.count == 12)

        let site = try NginxSite()
        let configuration = UpdaterConfiguration(
            interval: .milliseconds(100), intervalSpread: 0.2, attemptDeadline: .seconds(5),
            backoff: RetrySchedule(base: .milliseconds(100), cap: .seconds(1)))
        let worlds = (0..<Self.devices).map { _ in UpdaterFixture() }
        var updaters: [BundleUpdater] = []
        for world in worlds {
            updaters.append(
                try world.launch(
                    configuration: configuration, channel: site.channel(), transport: HTTPTransport.make()))
        }
        let activated = ActivationLog()
        let watchers = updaters.enumerated().map { index, updater in
            Task {
                for await poll in updater.polls {
                    switch poll.outcome {
                    case .activated(let identity, _): activated.record(identity, by: index)
                    case .refused: activated.recordRefusal()
                    default: break
                    }
                }
            }
        }
        for updater in updaters { await updater.start() }

        for version in versions {
            try site.write(version.served, to: site.objectPath(version.artifact))
            try site.writePointer(version.pointer)
            try await Task.sleep(for: .milliseconds(60))
        }

        // Every device reaches the last version, within a bound.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(90)
        var lagging = updaters.count
        while clock.now < deadline {
            lagging = 0
            for updater in updaters
            where await updater.installer.status(at: ShippingFixture.now).active != last.identity {
                lagging += 1
            }
            if lagging == 0 { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        for updater in updaters { await updater.stop() }
        for watcher in watchers { watcher.cancel() }

        #expect(lagging == 0, "\(lagging) of \(updaters.count) devices did not reach seq \(last.identity.seq)")
        let history = activated.history
        let wrong = history.flatMap { device, identities in
            identities.filter(corrupted.contains).map { "device \(device) activated \($0)" }
        }
        #expect(wrong.isEmpty, "\(wrong)")
        #expect(history.values.allSatisfy { !$0.isEmpty })
        #expect(activated.refusals > 0, "the corrupted versions reached the devices")
        // What each device persisted is the last version, and a restart starts there.
        for world in worlds {
            #expect(world.store.load().current?.identity == last.identity)
        }
    }
}

/// What each soak device activated, in order.
private final class ActivationLog: Sendable {
    private let entries = Locked<[Int: [UpdateIdentity]]>([:])
    private let refused = Locked(0)

    func recordRefusal() { refused.withLock { $0 += 1 } }

    var refusals: Int { refused.withLock { $0 } }

    func record(_ identity: UpdateIdentity, by device: Int) {
        entries.withLock { $0[device, default: []].append(identity) }
    }

    var history: [Int: [UpdateIdentity]] { entries.withLock { $0 } }
}
