/// What an uploaded batch holds, told by the path it is posted to: each kind has its own
/// buffer on the device and its own files on the collector, so a decisions file is a diff
/// corpus with nothing else in it, and a flood of decisions never pushes a status report out.
public enum DecisionLogKind: String, CaseIterable, Sendable {
    /// Decision lines, in the corpus format `junction diff --urls` reads.
    case decisions
    /// Device status reports: which bundle is active, refusals.
    case status

    /// The path a batch of this kind is posted to (`/v1/logs/decisions`).
    public var path: String { "/v1/logs/\(rawValue)" }

    /// The kind whose path is `target`'s, its query ignored; `nil` for any other path.
    /// - Parameter target: A request's target (`/v1/logs/decisions?device=7`).
    public init?(target: String) {
        let path = target.prefix { $0 != "?" }
        guard let kind = Self.allCases.first(where: { $0.path == path }) else { return nil }
        self = kind
    }
}
