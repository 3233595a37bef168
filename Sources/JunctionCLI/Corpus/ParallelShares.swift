import Foundation
import JunctionCore

/// Work on a batch split among the cores: each core takes one contiguous share, and the
/// results come back in the order of the shares — so what is printed or kept first is
/// what came first in the corpus.
enum ParallelShares {
    /// `body` applied to each share of `items`, the results in order.
    static func map<Item: Sendable, Result: Sendable>(
        _ items: [Item], minimumShare: Int = 64, _ body: @Sendable (ArraySlice<Item>) -> Result
    ) -> [Result] {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, items.count / minimumShare + 1))
        let share = (items.count + workers - 1) / workers
        let results = Locked([Result?](repeating: nil, count: workers))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let range = min(worker * share, items.count)..<min((worker + 1) * share, items.count)
            let result = body(items[range])
            results.withLock { $0[worker] = result }
        }
        return results.withLock { $0.map { $0! } }
    }
}
