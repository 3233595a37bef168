/// Where a Lua function's code is: its file and the lines its definition starts and
/// ends on (`linedefined`, `lastlinedefined`). A declared function in the engine and its
/// prototype in a file compiled again for analysis have the same span, so the span
/// carries what the analysis of one is known of the other.
///
/// Two functions of one file share a span only when both are defined between the same
/// two lines (`function() ... end` twice on one line): the analysis then knows neither.
struct FunctionSpan: Hashable {
    /// The file, as the bundle names it (`rules.lua`).
    var file: String
    /// The line of `function`.
    var lineDefined: Int
    /// The line of its `end`.
    var lastLineDefined: Int
}
