/// One segment of an expanded route pattern.
enum PatternSegment: Sendable, Hashable {
    /// Matches exactly this decoded text.
    case constant(String)
    /// `:name` — any one non-empty segment, captured; `regex` (written `:name(regex)`)
    /// must match the whole decoded segment.
    case parameter(name: String, regex: String?)
    /// `*` — any one non-empty segment, not captured.
    case wildcard
    /// `**` — every remaining segment, zero or more; only last. Captured under `"**"`.
    case catchAll

    /// Precedence rank: lower is more specific (constant > constrained parameter >
    /// parameter > `*` > `**`). A parameter with a declared non-string type counts as
    /// constrained, like one with a regex.
    func rank(typed: Bool) -> Int {
        switch self {
        case .constant: return 0
        case .parameter(_, let regex): return regex != nil || typed ? 1 : 2
        case .wildcard: return 3
        case .catchAll: return 4
        }
    }
}
