import Foundation
import JunctionLua
import JunctionCore
import Testing

/// The time backstop counts the rule's CPU time, not the wall clock: a rule that needs
/// 15 ms of work still finishes while 16 threads keep both cores busy and it waits most
/// of the time — a busy device must not refuse a good bundle while it loads or runs its
/// tests, nor reject its decisions. `scripts/test` runs this suite with the ones that
/// need the machine to themselves.
@Suite struct TimeBackstopStarvationTests {
    /// Spins `count` threads until ``stop()``.
    final class Hogs: Sendable {
        private let running = Locked(true)

        init(_ count: Int) {
            for _ in 0..<count {
                Thread.detachNewThread { [self] in
                    var x: UInt64 = 1
                    // The flag is read between bursts, so the threads spin on the CPU, not on its lock.
                    while running.withLock({ $0 }) {
                        for _ in 0..<100_000 { x = x &* 6_364_136_223_846_793_005 &+ 1 }
                    }
                    _ = x
                }
            }
        }

        func stop() { running.withLock { $0 = false } }
    }

    @Test func aRuleThatWaitsForTheCPUIsNotStoppedByTheTimeItWaits() throws {
        // About 3 million instructions: a few ms to 20 ms of CPU here, well under 50 ms.
        let engine = try RuleEngine(
            sources: [
                RuleSource(
                    name: "work.lua",
                    text: "function work()\n  local n = 0\n  for i = 1, 1000000 do n = n + i % 7 end\n  return n\nend")
            ],
            limits: SandboxLimits(instructions: 50_000_000, decisionInstructions: 100_000_000))
        let quiet = ContinuousClock().measure { _ = try? engine.evaluate("work") }
        let hogs = Hogs(16)
        defer { hogs.stop() }
        let clock = ContinuousClock()
        var slowest = Duration.zero
        for _ in 0..<5 {
            let started = clock.now
            let result = try engine.evaluate("work")
            slowest = max(slowest, clock.now - started)
            #expect(result.value == 2_999_998)
        }
        // The wall clock saw far more than the rule's CPU time; the backstop did not fire.
        #expect(slowest > quiet, "quiet \(quiet), under load \(slowest)")
    }
}
