/// A corpus line that cannot be read: where, and what is wrong with it.
package struct CorpusError: Error, CustomStringConvertible, Equatable {
    /// The corpus file.
    package var file: String
    /// The line, from 1; 0 for the file as a whole.
    package var line: Int
    /// What is wrong and what to write instead.
    package var message: String

    package init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `urls.jsonl:7: error: …`.
    package var description: String { line > 0 ? "\(file):\(line): error: \(message)" : "\(file): error: \(message)" }
}
