import Foundation
import Junction
import Synchronization

/// Decides a batch of corpus entries on every core and renders each decision, in the
/// order of the batch: the cores take contiguous shares, and the shares are joined in order.
enum BatchDecisions {
    /// What an entry's line leaves out.
    struct Defaults: Sendable {
        var source: RequestSource
        var context: ContextSnapshot
    }

    /// The rendered decision of each entry, in order.
    static func render(
        _ entries: [CorpusEntry], decider: Decider, defaults: Defaults,
        render: @Sendable (CorpusEntry, Decision) -> String
    ) -> [String] {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, entries.count / 64 + 1))
        let share = (entries.count + workers - 1) / workers
        let shares = Mutex([[String]](repeating: [], count: workers))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let range = min(worker * share, entries.count)..<min((worker + 1) * share, entries.count)
            var lines: [String] = []
            lines.reserveCapacity(range.count)
            for entry in entries[range] {
                let request = RouteRequest(
                    entry.url, params: entry.params,
                    source: entry.source.map { RequestSource(rawValue: $0) } ?? defaults.source)
                let decision = decider.decide(
                    request, context: entry.context.map(ContextSnapshot.init) ?? defaults.context)
                lines.append(render(entry, decision))
            }
            shares.withLock { $0[worker] = lines }
        }
        return shares.withLock { $0.flatMap { $0 } }
    }
}
