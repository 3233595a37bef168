import Foundation
import Junction
import JunctionShipping
import Testing

/// Eight threads decide while snapshots of two bundles are swapped under them: every
/// decision is whole — bundle A's route and A's rule, or B's and B's — and none fails.
///
/// A million decisions and 10,000 swaps between the redirect pair (rules that borrow no
/// Lua engine: a debug build decides them in under 20 s on two cores), and a fiftieth of
/// that between the Lua pair, whose interceptor runs in an engine borrowed from the bundle
/// being swapped out (three times the cost of a decision). `JUNCTION_SWAP_DECISIONS` lowers the million for the thread-sanitizer pass of
/// `scripts/test`, which is many times slower.
@Suite struct SwapUnderLoadTests {
    static let deciders = 8
    /// Each decider swaps the snapshot after every `swapEvery` of its decisions, so swaps
    /// come from all eight threads while the other seven decide.
    static let swapEvery = 100

    /// What one decider saw.
    struct Tally: Sendable {
        var whole: [String: Int] = [:]
        var mixed: [String: Int] = [:]
        var failed: [String: Int] = [:]
        var swaps = 0

        mutating func add(_ other: Tally) {
            whole.merge(other.whole, uniquingKeysWith: +)
            mixed.merge(other.mixed, uniquingKeysWith: +)
            failed.merge(other.failed, uniquingKeysWith: +)
            swaps += other.swaps
        }
    }

    /// The tallies of the finished deciders, behind an NSLock: the thread sanitizer
    /// understands a pthread mutex, not `Synchronization.Mutex`'s futex waits.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var merged = Tally()
        let finished = DispatchSemaphore(value: 0)

        func add(_ tally: Tally) {
            lock.lock()
            defer { lock.unlock() }
            merged.add(tally)
        }

        var tally: Tally {
            lock.lock()
            defer { lock.unlock() }
            return merged
        }
    }

    static var decisions: Int {
        ProcessInfo.processInfo.environment["JUNCTION_SWAP_DECISIONS"].flatMap(Int.init) ?? 1_000_000
    }

    /// One load: a pair of snapshots, the URL both decide, and its share of the decisions.
    struct Load: Sendable, CustomTestStringConvertible {
        let name: String
        let a: PolicySnapshot
        let b: PolicySnapshot
        let url: String
        let share: Int
        var testDescription: String { name }
    }

    static let loads = [
        Load(
            name: "redirect rules", a: PolicyFixture.redirectSnapshotA, b: PolicyFixture.redirectSnapshotB,
            url: PolicyFixture.redirected, share: 1),
        Load(
            name: "Lua interceptors", a: PolicyFixture.snapshotA, b: PolicyFixture.snapshotB, url: PolicyFixture.url,
            share: 50),
    ]

    @Test(arguments: loads)
    func eightDecidersSeeNoMixAcrossSwaps(load: Load) {
        let total = Self.decisions / load.share
        // Rounded up to whole swap intervals, so the totals are never below the bar.
        let intervals = (total + Self.deciders * Self.swapEvery - 1) / (Self.deciders * Self.swapEvery)
        let perDecider = intervals * Self.swapEvery
        let policy = ActivePolicy(load.a)
        let results = Results()
        let request = RouteRequest(load.url)
        for _ in 0..<Self.deciders {
            Thread {
                var tally = Tally()
                for index in 1...perDecider {
                    let label = PolicyFixture.label(policy.decide(request))
                    switch label {
                    case "PA+a", "PB+b": tally.whole[label, default: 0] += 1
                    case "PA+b", "PB+a", "PA+a+b", "PB+a+b", "PA", "PB": tally.mixed[label, default: 0] += 1
                    default: tally.failed[label, default: 0] += 1
                    }
                    if index % Self.swapEvery == 0 {
                        let next = policy.current === load.a ? load.b : load.a
                        policy.activate(next)
                        tally.swaps += 1
                    }
                }
                results.add(tally)
                results.finished.signal()
            }.start()
        }
        for _ in 0..<Self.deciders { results.finished.wait() }
        let tally = results.tally
        #expect(tally.failed.isEmpty)
        #expect(tally.mixed.isEmpty)
        #expect(tally.whole.values.reduce(0, +) == perDecider * Self.deciders)
        #expect(tally.whole.values.reduce(0, +) >= total)
        #expect(tally.swaps == intervals * Self.deciders)
        #expect(tally.swaps >= total / Self.swapEvery)
        // Both bundles decided a share: the swaps happened while the deciders ran.
        #expect((tally.whole["PA+a"] ?? 0) > 0 && (tally.whole["PB+b"] ?? 0) > 0)
        print(
            "swap under load, \(load.name): \(tally.whole.values.reduce(0, +)) decisions on \(Self.deciders) threads, "
                + "\(tally.swaps) swaps, \(tally.whole["PA+a"] ?? 0) under A, \(tally.whole["PB+b"] ?? 0) under B, "
                + "0 mixed, 0 failed")
    }
}
