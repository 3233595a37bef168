import Junction
import JunctionTooling

/// One changed request kept to show: where it came from and both decisions.
struct DiffSample: Sendable {
    /// The corpus line, from 1.
    let line: Int
    /// The context both decided it in.
    let context: ContextSnapshot
    /// The decision under the old bundle.
    let old: Decision
    /// The decision under the new bundle.
    let new: Decision
    /// How they differ.
    let change: DecisionChange

    /// Requests that differ only in what a diff does not show are one sample.
    var key: String { old.request.source.rawValue + " " + old.request.url }
}
