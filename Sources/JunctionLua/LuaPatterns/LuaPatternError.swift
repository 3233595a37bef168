/// An error Lua 5.4's pattern functions raise, with the text `lstrlib.c` gives it, so rules
/// see the same messages as with Lua's own functions.
enum LuaPatternError: BitwiseCopyable, Equatable {
    /// A pattern ending in a lone `%`.
    case endsWithPercent
    /// A set `[...]` without its `]`.
    case missingSetEnd
    /// `%b` without the two bytes it balances.
    case missingBalanceArguments
    /// `%f` not followed by a set.
    case missingFrontierSet
    /// `%N` (in a pattern or a replacement) naming a capture that does not exist or is
    /// still open; the payload is N.
    case invalidCaptureIndex(Int)
    /// A `)` with no open capture to close.
    case invalidPatternCapture
    /// A match whose capture is still open when its captures are read.
    case unfinishedCapture
    /// More than ``LuaPatternCaptures/capacity`` captures.
    case tooManyCaptures
    /// Recursion deeper than ``LuaPatternMatcher/maximumDepth``.
    case tooComplex
    /// A `%` in a replacement string followed by neither `%` nor a digit.
    case invalidReplacement

    /// The message, up to the capture index that ``invalidCaptureIndex(_:)`` appends.
    var text: StaticString {
        switch self {
        case .endsWithPercent: "malformed pattern (ends with '%')"
        case .missingSetEnd: "malformed pattern (missing ']')"
        case .missingBalanceArguments: "malformed pattern (missing arguments to '%b')"
        case .missingFrontierSet: "missing '[' after '%f' in pattern"
        case .invalidCaptureIndex: "invalid capture index %"
        case .invalidPatternCapture: "invalid pattern capture"
        case .unfinishedCapture: "unfinished capture"
        case .tooManyCaptures: "too many captures"
        case .tooComplex: "pattern too complex"
        case .invalidReplacement: "invalid use of '%' in replacement string"
        }
    }
}
