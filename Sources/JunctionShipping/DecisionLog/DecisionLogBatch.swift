/// Lines taken from a ``DecisionLog`` to upload, oldest first, with how many lines the log
/// dropped since the batch before: what the uploader sends and, if the upload fails,
/// puts back.
public struct DecisionLogBatch: Sendable, Hashable {
    /// The lines, each one JSON object.
    public var lines: [String]
    /// Lines dropped before this batch: the buffer was full, or a line too long.
    public var dropped: Int

    /// A batch.
    /// - Parameters:
    ///   - lines: The lines.
    ///   - dropped: How many were dropped before it.
    public init(lines: [String], dropped: Int) {
        self.lines = lines
        self.dropped = dropped
    }

    /// Whether it has neither lines nor drops to report.
    public var isEmpty: Bool { lines.isEmpty && dropped == 0 }
}
