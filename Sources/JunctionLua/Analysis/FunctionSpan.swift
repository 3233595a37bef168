/// Where a Lua function's code is: its file and the lines its definition starts and
/// ends on (`linedefined`, `lastlinedefined`). A declared function in the engine and its
/// prototype in the file compiled again for analysis have the same span: the span finds
/// the prototype whose code is the function's.
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
