package import Junction

/// One request of a corpus: a URL, and what its line says of who opened it, the context
/// it was opened in and extra parameters; what a line leaves out, the command's options
/// supply.
package struct CorpusEntry: Sendable, Equatable {
    /// The URL to open.
    package var url: String
    /// Who opened it, when the line says.
    package var source: String?
    /// The context, when the line says.
    package var context: [String: RuleValue]?
    /// Extra parameters.
    package var params: [String: RuleValue]
    /// The line it was read from, from 1.
    package var line: Int

    package init(
        url: String, source: String? = nil, context: [String: RuleValue]? = nil, params: [String: RuleValue],
        line: Int
    ) {
        self.url = url
        self.source = source
        self.context = context
        self.params = params
        self.line = line
    }
}
