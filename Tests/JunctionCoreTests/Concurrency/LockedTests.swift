import Foundation
import JunctionCore
import Testing

/// `Locked`, the one lock of every module: exclusive under contention (also run under the
/// thread sanitizer by `scripts/test`), and released when its body throws.
@Suite struct LockedTests {
    /// Threads × increments each → the count they must reach together.
    @Test(arguments: [(2, 50_000), (8, 10_000), (16, 2_000)])
    func everyIncrementFromEveryThreadCounts(threads: Int, increments: Int) {
        let counter = Locked(0)
        let done = DispatchGroup()
        for _ in 0..<threads {
            done.enter()
            Thread.detachNewThread {
                for _ in 0..<increments { counter.withLock { $0 += 1 } }
                done.leave()
            }
        }
        done.wait()
        #expect(counter.withLock { $0 } == threads * increments)
    }

    struct Refused: Error, Equatable {}

    @Test func aThrowingBodyLeavesTheValueAsItWasAndTheLockFree() {
        let value = Locked([1, 2])
        #expect(throws: Refused.self) {
            try value.withLock { (numbers: inout [Int]) throws(Refused) in
                numbers.append(3)
                throw Refused()
            }
        }
        // What the body changed before throwing stays (as with any inout), and the lock
        // is free: a second caller gets in.
        #expect(value.withLock { $0 } == [1, 2, 3])
        let typed: Result<Int, Refused> = Result { () throws(Refused) in
            try value.withLock { _ throws(Refused) in throw Refused() }
        }
        #expect(typed == .failure(Refused()))
    }
}
