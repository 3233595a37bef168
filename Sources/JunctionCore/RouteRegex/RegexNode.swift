/// A route regex as read, before compiling: what it matches and where each part starts.
/// Groups leave no node of their own; captures are not needed to match a whole segment.
struct RegexNode: Sendable {
    indirect enum Kind: Sendable {
        /// Matches the empty string: an empty alternative, `()`, `x{0}`.
        case empty
        /// One scalar, exactly.
        case scalar(UInt32)
        /// One scalar of a class, `.` or a shorthand such as `\d`.
        case set(ScalarSet)
        /// `^`: only at the start of the segment.
        case start
        /// `$`: only at the end of the segment.
        case end
        case concatenation([RegexNode])
        case alternation([RegexNode])
        /// `body` at least `min` times and at most `max` (`nil`: no limit).
        case repetition(RegexNode, min: Int, max: Int?)
    }

    let kind: Kind
    /// Where the node starts in the regex, in Unicode scalars; for a repetition, where its
    /// quantifier starts.
    let offset: Int
}
