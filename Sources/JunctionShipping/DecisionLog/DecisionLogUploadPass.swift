/// What one pass of a ``DecisionLogUploader`` did: the batches and lines the collector
/// took, the lines given up and why, the batches kept for later, and the failure that ended
/// the pass early, if one did.
public struct DecisionLogUploadPass: Sendable, Hashable {
    /// Batches the collector took (a `2xx`).
    public var sentBatches = 0
    /// Lines the collector took: log lines, and drops reported, for batches read back from
    /// the pending folder.
    public var sentLines = 0
    /// Lines given up in this pass and counted as dropped: refused for good by the collector
    /// (a `4xx` other than those worth retrying), or removed from a full pending folder.
    public var droppedLines = 0
    /// Batches that could not be sent and were kept for the next pass (in the pending folder
    /// when there is one, else back in the buffer).
    public var keptBatches = 0
    /// Why the pass stopped early: the collector could not be reached, or answered a status
    /// worth retrying (``UpdateTransportError/Code/status``); `nil` when it sent everything.
    public var failure: UpdateTransportError?
    /// How long the collector asked to be left alone (`Retry-After`), when it said.
    public var retryAfter: Duration?

    /// A pass that has done nothing yet.
    public init() {}
}
