import Junction

/// One request of a corpus: a URL, and what its line says of who opened it, the context
/// it was opened in and extra parameters; what a line leaves out, the command's options
/// supply.
struct CorpusEntry: Sendable {
    /// The URL to open.
    var url: String
    /// Who opened it, when the line says.
    var source: String?
    /// The context, when the line says.
    var context: [String: RuleValue]?
    /// Extra parameters.
    var params: [String: RuleValue]
    /// The line it was read from, from 1.
    var line: Int
}
