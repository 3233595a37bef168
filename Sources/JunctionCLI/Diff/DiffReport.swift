import Junction

/// A diff's findings, ready to render: both bundles, the corpus lines skipped, the tally,
/// what the corpus never exercised in the new bundle, and the CI checks that failed.
struct DiffReport {
    /// `example@3 (rules/example)`.
    let old: String
    /// `example@4 (tonight/)`.
    let new: String
    /// The old bundle's `name@version`.
    let oldLabel: String
    /// The new bundle's `name@version`.
    let newLabel: String
    /// The new bundle's `minimum_host_version`: requests from older apps keep the old
    /// bundle (``DiffTally/belowMinimumHost``).
    let minimumHostVersion: SemanticVersion?
    /// The corpus file.
    let corpus: String
    /// Corpus lines read.
    let lines: Int
    /// The corpus lines that could not be read and were skipped.
    let skipped: SkippedLines
    /// What the corpus's requests did under both bundles.
    let tally: DiffTally
    /// The new bundle's routes no decision matched, by name.
    let unexercisedRoutes: [String]
    /// The new bundle's rules no decision ran.
    let unexercisedRules: [String]
    /// Why the run fails `--max-changes` or `--fail-on`, one sentence each.
    let failedChecks: [String]

    /// `12 requests from app versions below 6.1.0 keep yesterday's bundle (example@3)…`, or
    /// `nil` when no request is from such an app.
    var belowMinimumHostSentence: String? {
        guard tally.belowMinimumHost > 0, let minimumHostVersion else { return nil }
        let count = tally.belowMinimumHost
        return "\(grouped(count)) \(count == 1 ? "request" : "requests") from app versions below "
            + "\(minimumHostVersion) \(count == 1 ? "keeps" : "keep") yesterday's bundle (\(oldLabel)): "
            + "\(newLabel) needs \(minimumHostVersion) or later (minimum_host_version); not decided, "
            + "not counted as changes"
    }

    /// `12.5%` of the requests, to one decimal (`<0.1%` for a few in many).
    func share(_ count: Int) -> String {
        guard tally.requests > 0 else { return "0%" }
        let percent = Double(count) * 100 / Double(tally.requests)
        if count > 0 && percent < 0.1 { return "<0.1%" }
        return "\((percent * 10).rounded() / 10)%"
    }
}
