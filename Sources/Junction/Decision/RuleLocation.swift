package import JunctionCore

extension SourceLocation {
    /// The location of a Lua declaration given as `"file.lua:12"`, with the file inside
    /// `directory`; `nil` when `text` has no line.
    package init?(declaredAt text: String, in directory: String?) {
        guard let colon = text.lastIndex(of: ":"), let line = Int(text[text.index(after: colon)...]) else { return nil }
        let file = String(text[..<colon])
        let path = directory.map { $0.hasSuffix("/") ? $0 + file : $0 + "/" + file } ?? file
        self.init(file: path, line: line, column: 1)
    }

    /// The location of a Lua declaration given as `"file.lua:12"`, pointing at the
    /// column where `literal` is written as a string (`"…"` or `'…'`) on that line or one
    /// of the next few: a declaration's table may span lines, and Lua gives the line of
    /// the call only. Falls back to column 1.
    package init?(declaredAt text: String, in directory: String?, pointingAt literal: String, sources: [RuleSource]) {
        self.init(declaredAt: text, in: directory)
        let file = String(text[..<(text.lastIndex(of: ":") ?? text.endIndex)])
        // Only names of ordinary length are looked for: each line is searched for the literal.
        guard literal.utf8.count <= Self.longestLiteralSought, let source = sources.first(where: { $0.name == file })
        else { return }
        let lines = source.text.split(separator: "\n", omittingEmptySubsequences: false)
        // As written in the source: backslashes and the quote escaped.
        let escaped = literal.replacingOccurrences(of: "\\", with: "\\\\")
        let quoted = [
            "\"" + escaped.replacingOccurrences(of: "\"", with: "\\\"") + "\"",
            "'" + escaped.replacingOccurrences(of: "'", with: "\\'") + "'",
        ]
        for index in (line - 1)..<min(lines.count, line - 1 + Self.declarationSpan) where index >= 0 {
            let text = lines[index]
            guard let found = quoted.compactMap({ text.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound })
            else { continue }
            line = index + 1
            column = text.distance(from: text.startIndex, to: found.lowerBound) + 1
            return
        }
    }

    /// How many lines from a declaration's first a literal of it is looked for.
    private static let declarationSpan = 40
    /// The longest literal looked for, in bytes; a longer one is placed at column 1.
    private static let longestLiteralSought = 256
}
