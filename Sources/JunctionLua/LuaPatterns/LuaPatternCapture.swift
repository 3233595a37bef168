/// One capture of a pattern match: where it starts in the subject and how long it is, or
/// that it is still open or a position capture `()`.
struct LuaPatternCapture: BitwiseCopyable {
    /// The length of a capture whose `)` the matcher has not reached yet.
    static let unfinished = -1
    /// The length of a position capture, `()`, which captures where it stands.
    static let position = -2

    /// The index in the subject where the capture starts.
    var start = 0
    /// Its length in bytes, or ``unfinished`` or ``position``.
    var length = 0
}
