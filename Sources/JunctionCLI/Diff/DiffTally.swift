import Junction
import JunctionTooling

/// What a diff found over (a share of) a corpus: how many requests were decided, how many
/// changed and of what kind, each kind by the cause where the decisions part, the first few
/// of each kind (distinct URLs, in corpus order), and what the new bundle's decisions
/// exercised.
struct DiffTally: Sendable {
    /// How many samples each kind keeps.
    let sampleLimit: Int
    /// How many distinct causes each kind keeps.
    let causeLimit: Int
    /// Requests decided by both bundles.
    private(set) var requests = 0
    /// Requests from apps older than the new bundle's `minimum_host_version`: they keep
    /// the old bundle, so they were not decided.
    private(set) var belowMinimumHost = 0
    /// Requests whose decisions differ.
    private(set) var changed = 0
    /// Changes by kind.
    private(set) var counts: [DecisionChange.Kind: Int] = [:]
    /// Changes of each kind by their cause.
    private(set) var causes: [DecisionChange.Kind: CauseCounts] = [:]
    /// The first samples of each kind.
    private(set) var samples: [DecisionChange.Kind: [DiffSample]] = [:]
    /// The routes and rules the new bundle's decisions went through.
    private(set) var exercise = PolicyExercise()
    /// The keys of the samples kept, by kind: a URL seen again is found in constant time.
    private var sampleKeys: [DecisionChange.Kind: Set<String>] = [:]

    /// Nothing tallied yet.
    /// - Parameters:
    ///   - sampleLimit: How many samples each kind keeps.
    ///   - causeLimit: How many distinct causes each kind keeps; the rest count as other.
    init(sampleLimit: Int, causeLimit: Int = CauseCounts.defaultLimit) {
        self.sampleLimit = sampleLimit
        self.causeLimit = causeLimit
    }

    /// Decides each request of `share` under both deciders and tallies the changes; a
    /// request from an app below `floor` is only counted. A share is part of one batch, so
    /// it counts every cause it meets: merged in order into a bounded tally, the shares
    /// count exactly what one pass would.
    static func deciding(
        _ share: ArraySlice<CorpusRequest>, old: Decider, new: Decider, floor: HostVersionFloor, sampleLimit: Int
    ) -> DiffTally {
        var tally = DiffTally(sampleLimit: sampleLimit, causeLimit: .max)
        for request in share {
            if floor.isBelow(request.context) {
                tally.belowMinimumHost += 1
                continue
            }
            let before = old.decide(request.request, context: request.context)
            let after = new.decide(request.request, context: request.context)
            tally.record(request, old: before, new: after)
        }
        return tally
    }

    /// Tallies one request's two decisions.
    mutating func record(_ request: CorpusRequest, old: Decision, new: Decision) {
        requests += 1
        exercise.record(new)
        guard let change = DecisionChange(old: old, new: new) else { return }
        changed += 1
        counts[change.kind, default: 0] += 1
        causes[change.kind, default: CauseCounts(limit: causeLimit)].add(change.cause)
        keep(DiffSample(line: request.line, context: request.context, old: old, new: new, change: change))
    }

    /// Adds a later share's tally: its samples come after this one's.
    mutating func merge(_ later: DiffTally) {
        requests += later.requests
        belowMinimumHost += later.belowMinimumHost
        changed += later.changed
        counts.merge(later.counts, uniquingKeysWith: +)
        for (kind, later) in later.causes { causes[kind, default: CauseCounts(limit: causeLimit)].merge(later) }
        for kind in DecisionChange.Kind.allCases {
            for sample in later.samples[kind] ?? [] { keep(sample) }
        }
        exercise.merge(later.exercise)
    }

    private mutating func keep(_ sample: DiffSample) {
        let kind = sample.change.kind
        guard samples[kind, default: []].count < sampleLimit, sampleKeys[kind, default: []].insert(sample.key).inserted
        else { return }
        samples[kind, default: []].append(sample)
    }

    /// The kinds found, most frequent first (ties in the order of ``DecisionChange/Kind``).
    var kindsFound: [DecisionChange.Kind] {
        DecisionChange.Kind.allCases.filter { counts[$0, default: 0] > 0 }
            .enumerated().sorted { a, b in
                let (countA, countB) = (counts[a.element]!, counts[b.element]!)
                return countA != countB ? countA > countB : a.offset < b.offset
            }.map(\.element)
    }
}
