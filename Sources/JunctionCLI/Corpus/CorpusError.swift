/// A corpus line that cannot be read: where, and what is wrong with it.
struct CorpusError: Error, CustomStringConvertible {
    /// The corpus file.
    var file: String
    /// The line, from 1; 0 for the file as a whole.
    var line: Int
    /// What is wrong and what to write instead.
    var message: String

    /// `urls.jsonl:7: error: …`.
    var description: String { line > 0 ? "\(file):\(line): error: \(message)" : "\(file): error: \(message)" }
}
