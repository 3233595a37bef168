import JunctionTooling
import Foundation
import Junction

/// `--contexts FILE`: the contexts a corpus's lines are each decided in, one JSON object a
/// line (`{"user": {"id": 7}, "app_version": "6.0.0"}`), each over the `--context` values.
/// Blank lines and `#` lines are skipped; each must fit the bundle's context schema.
enum ContextsFile {
    /// The most contexts a file may hold: each multiplies the corpus.
    static let maximumContexts = 1_000
    /// The largest file read.
    static let maximumBytes = 4 << 20

    /// The contexts of `path`, each over `base`.
    static func read(_ path: String, over base: [String: RuleValue], schema: ContextSchema?) throws(CorpusError)
        -> [ContextSnapshot]
    {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CorpusError(file: path, line: 0, message: "cannot be read")
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: maximumBytes + 1)) ?? Data()
        guard data.count <= maximumBytes else {
            throw CorpusError(
                file: path, line: 0,
                message:
                    "larger than \(maximumBytes) bytes; a contexts file is a list of users and devices, not a corpus")
        }
        var contexts: [ContextSnapshot] = []
        for (index, line) in data.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") { continue }
            func failure(_ message: String) -> CorpusError {
                CorpusError(file: path, line: index + 1, message: message)
            }
            guard contexts.count < maximumContexts else {
                throw failure("more than \(maximumContexts) contexts; each one decides the whole corpus again")
            }
            let value: RuleValue
            do { value = try CanonicalJSON.decode(Array(text.utf8)) } catch {
                throw failure("not a JSON object: \(error)")
            }
            guard case .table(let fields) = value else {
                throw failure("not a JSON object: a context is {\"key\": value, …}")
            }
            let context = ContextSnapshot(base.merging(fields) { _, own in own })
            if let problem = schema?.validate(context).first { throw failure("context: \(problem)") }
            contexts.append(context)
        }
        guard !contexts.isEmpty else {
            throw CorpusError(file: path, line: 0, message: "has no context; write one JSON object a line")
        }
        return contexts
    }
}
