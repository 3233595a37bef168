import JunctionCore

extension SourceLocation {
    /// The location of a Lua declaration given as `"file.lua:12"`, with the file inside
    /// `directory`; `nil` when `text` has no line.
    init?(declaredAt text: String, in directory: String?) {
        guard let colon = text.lastIndex(of: ":"), let line = Int(text[text.index(after: colon)...]) else { return nil }
        let file = String(text[..<colon])
        let path = directory.map { $0.hasSuffix("/") ? $0 + file : $0 + "/" + file } ?? file
        self.init(file: path, line: line, column: 1)
    }
}
