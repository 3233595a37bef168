import JunctionTooling

/// How many changes of one kind each cause made — the rule, redirect or route where the
/// decisions part — with at most ``limit`` distinct causes kept: a corpus cannot grow
/// memory by parting at ever new places (a hand-over per URL scheme, say). Changes of a
/// cause first seen after the limit is reached are counted in ``other``.
struct CauseCounts: Sendable {
    /// The most distinct causes kept for one kind of change.
    static let defaultLimit = 50

    /// The most distinct causes kept.
    let limit: Int
    /// Changes by cause, for the causes kept.
    private(set) var counts: [DivergenceCause: Int] = [:]
    /// Changes whose cause was not kept.
    private(set) var other = 0
    /// The causes kept, in the order first seen: ties rank in it.
    private var order: [DivergenceCause] = []

    /// No change counted yet.
    /// - Parameter limit: The most distinct causes kept.
    init(limit: Int = defaultLimit) {
        self.limit = limit
    }

    /// Counts `count` changes put down to `cause`.
    mutating func add(_ cause: DivergenceCause, count: Int = 1) {
        if let kept = counts[cause] {
            counts[cause] = kept + count
        } else if order.count < limit {
            counts[cause] = count
            order.append(cause)
        } else {
            other += count
        }
    }

    /// Adds a later share's counts: its causes rank after this one's in ties, and those
    /// past the limit join ``other``.
    mutating func merge(_ later: CauseCounts) {
        for cause in later.order { add(cause, count: later.counts[cause]!) }
        other += later.other
    }

    /// The causes kept, most frequent first; ties in the order first seen.
    var ranked: [(cause: DivergenceCause, count: Int)] {
        order.enumerated().sorted { a, b in
            let (countA, countB) = (counts[a.element]!, counts[b.element]!)
            return countA != countB ? countA > countB : a.offset < b.offset
        }.map { ($0.element, counts[$0.element]!) }
    }
}
