import JunctionTooling

/// The corpus lines a diff could not read and went past: how many, and the first few with
/// where and what is wrong. However many there are, only ``keptLimit`` errors are kept.
struct SkippedLines: Sendable {
    /// How many errors are kept to show.
    static let keptLimit = 10

    /// Lines skipped.
    private(set) var count = 0
    /// The first of them, in corpus order.
    private(set) var first: [CorpusError] = []

    /// Counts the line `error` names as skipped, keeping the error while fewer than
    /// ``keptLimit`` are kept.
    mutating func record(_ error: CorpusError) {
        count += 1
        if first.count < Self.keptLimit { first.append(error) }
    }

    /// `urls.jsonl:7: context: app_version: expected version, found a string that is not one`.
    static func line(_ error: CorpusError) -> String { "\(error.file):\(error.line): \(error.message)" }
}
