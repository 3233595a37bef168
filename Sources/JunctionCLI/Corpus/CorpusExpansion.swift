import JunctionTooling
import Junction

/// What the command line adds to a corpus's lines: a line that names no source is decided
/// once for each `--source`, a line without a context once for each context (`--context`
/// values, or each line of `--contexts FILE` over them), and every line gets the `--param`
/// values it does not set itself.
struct CorpusExpansion: Sendable {
    /// The sources for lines without one, at least one.
    var sources: [RequestSource]
    /// The contexts for lines without one, at least one.
    var contexts: [ContextSnapshot]
    /// Parameters every line gets unless it sets them.
    var params: [String: RuleValue]

    /// How many requests a line becomes at most.
    var fanOut: Int { sources.count * contexts.count }

    /// The requests `entry` stands for, in order: each source, then within it each context.
    func requests(for entry: CorpusEntry) -> [CorpusRequest] {
        var params = entry.params
        params.merge(self.params) { own, _ in own }
        let sources = entry.source.map { [RequestSource(rawValue: $0)] } ?? self.sources
        let contexts = entry.context.map { [ContextSnapshot($0)] } ?? self.contexts
        var requests: [CorpusRequest] = []
        requests.reserveCapacity(sources.count * contexts.count)
        for source in sources {
            for context in contexts {
                requests.append(
                    CorpusRequest(
                        request: RouteRequest(entry.url, params: params, source: source), context: context,
                        line: entry.line))
            }
        }
        return requests
    }
}

/// One request of a corpus, ready to decide.
struct CorpusRequest: Sendable {
    /// The request.
    var request: RouteRequest
    /// The context it is decided in.
    var context: ContextSnapshot
    /// The corpus line it comes from.
    var line: Int
}
