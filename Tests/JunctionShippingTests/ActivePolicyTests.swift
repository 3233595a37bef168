import Foundation
import Junction
import JunctionShipping
import Testing

/// One immutable snapshot at a time: a swap affects the decisions that start after it,
/// never one in flight.
@Suite struct ActivePolicyTests {
    /// What a decision on another thread concluded.
    final class Outcome: @unchecked Sendable {
        // Written once by the deciding thread before `done` is signalled, read after the wait.
        var label = ""
        let done = DispatchSemaphore(value: 0)
    }

    @Test func decidesUnderTheSnapshotActivatedLast() {
        let policy = ActivePolicy(PolicyFixture.snapshotA)
        #expect(PolicyFixture.label(policy.decide(RouteRequest(PolicyFixture.url))) == "PA+a")
        let previous = policy.activate(PolicyFixture.snapshotB)
        #expect(previous === PolicyFixture.snapshotA)
        #expect(policy.current === PolicyFixture.snapshotB)
        #expect(PolicyFixture.label(policy.decide(RouteRequest(PolicyFixture.url))) == "PB+b")
    }

    @Test func aDecisionStartedBeforeASwapFinishesUnderTheOldSnapshot() throws {
        let held = HeldInterceptor()
        let policy = ActivePolicy(
            PolicySnapshot(
                decider: try Decider(bundle: PolicyFixture.a, interceptors: [held.interceptor]), origin: .app))
        let outcome = Outcome()
        Thread {
            outcome.label = PolicyFixture.label(policy.decide(RouteRequest(PolicyFixture.url)))
            outcome.done.signal()
        }.start()
        held.entered.wait()
        policy.activate(PolicyFixture.snapshotB)
        // The held decision still runs; decisions starting now already see B: the swap waited for nothing.
        #expect(PolicyFixture.label(policy.decide(RouteRequest(PolicyFixture.url))) == "PB+b")
        held.release.signal()
        outcome.done.wait()
        #expect(outcome.label == "PA+a")
    }

    @Test func updateRebuildsOnASnapshotSwappedInMeanwhile() {
        let policy = ActivePolicy(PolicyFixture.snapshotA)
        var bases: [String] = []
        let made = policy.update { base in
            bases.append(base.bundle?.manifest.name ?? "none")
            // Another caller swaps while this replacement is being built: it must not be lost.
            if bases.count == 1 { policy.activate(PolicyFixture.snapshotB) }
            return PolicySnapshot(decider: base.decider, origin: .app)
        }
        #expect(bases == ["policy-a", "policy-b"])
        #expect(policy.current === made)
        #expect(made.bundle?.manifest.name == "policy-b")
    }

    @Test func updateThatThrowsSwapsNothing() {
        let policy = ActivePolicy(PolicyFixture.snapshotA)
        let error = #expect(throws: BundleError.self) {
            try policy.update { _ throws(BundleError) in throw BundleError([Diagnostic(.error, "no")]) }
        }
        #expect(error?.diagnostics.map(\.message) == ["no"])
        #expect(policy.current === PolicyFixture.snapshotA)
    }

    @Test(arguments: [
        (PolicyFixture.snapshotA, "policy-a@1 from app"),
        (PolicyFixture.snapshotB, "policy-b@1 seq 2 (sha256 bbbb…bbbb) from update"),
        (
            PolicySnapshot(decider: try! Decider(routes: PolicyFixture.a.routes), origin: .lastKnownGood),
            "routes only from last-known-good"
        ),
    ])
    func describesItsBundleUpdateAndOrigin(snapshot: PolicySnapshot, text: String) {
        #expect(snapshot.description == text)
    }
}
