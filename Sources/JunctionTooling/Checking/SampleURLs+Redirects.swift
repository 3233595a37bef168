import JunctionCore
import Junction

extension SampleURLs {
    /// One `from` pattern of the declared redirects, with the matches of its sample URLs.
    struct RedirectSample {
        /// The redirects declared from the pattern, in declaration order.
        var rules: [RedirectRules.Rule]
        /// Each sample URL matched by the pattern, as the redirect table matches it.
        var matches: [RouteMatch]
        /// Whether the samples cover every expansion and combination (``SampleURLs/isComplete``).
        var isComplete: Bool
    }

    /// The `from` patterns of `redirects`, in the table's order, each with its samples:
    /// what the checks of declared redirects try in place of every URL.
    static func ofRedirects(_ redirects: RedirectRules, samples: ParameterSamples) -> [RedirectSample] {
        guard let table = redirects.table else { return [] }
        return redirects.rulesByRoute.enumerated().map { routeIndex, rules in
            let sampled = SampleURLs(ofRouteAt: routeIndex, in: table, samples: samples)
            return RedirectSample(
                rules: rules,
                matches: sampled.urls.compactMap { uri in table.matches(uri).first { $0.routeIndex == routeIndex } },
                isComplete: sampled.isComplete)
        }
    }
}
