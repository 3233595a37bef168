/// One instruction of a compiled route regex: a state of its Thompson NFA. Targets are
/// instruction indices; a consuming instruction continues at the next one.
enum RegexInstruction: Sendable, Hashable {
    /// Consumes this scalar value.
    case scalar(UInt32)
    /// Consumes a scalar of the program's set at this index.
    case set(Int32)
    /// Continues at both targets (the order is irrelevant: only whether a whole match
    /// exists counts, not which).
    case split(Int32, Int32)
    case jump(Int32)
    /// Continues only at the start of the segment.
    case assertStart
    /// Continues only at the end of the segment.
    case assertEnd
    /// The regex has matched; a whole match when the segment is used up.
    case match
}
