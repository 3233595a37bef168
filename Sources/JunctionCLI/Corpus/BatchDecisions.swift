import Junction

/// Decides a batch of corpus requests on every core and renders each decision, in the
/// order of the batch.
enum BatchDecisions {
    /// The rendered decision of each request, in order.
    static func render(
        _ requests: [CorpusRequest], decider: Decider, render: @Sendable (CorpusRequest, Decision) -> String
    ) -> [String] {
        ParallelShares.map(requests) { share in
            share.map { render($0, decider.decide($0.request, context: $0.context)) }
        }.flatMap { $0 }
    }
}
