import Foundation
package import Junction

/// Reads a corpus of requests, one per line, in batches: a URL as text, or a JSON object
/// `{"url": …, "source": …, "context": {…}, "params": {…}}` — the line
/// `Decision.corpusLine(context:)` writes (only `url` is required), or a line of a device's
/// decision log, whose other lines (`"kind": "status"`) it skips. Blank lines and lines
/// starting with `#` are skipped; a gzip file is inflated as it is read. Each line is at
/// most ``maximumLineBytes``; a longer one is an error naming its line, and the file is
/// never held whole: batches of ``batchSize`` entries are read as they are decided (a
/// reader holds at most a line's limit and two chunks). A
/// line's context must fit the bundle's context schema, when it declares one.
///
/// An error of a line (its ``CorpusError/line`` above 0) leaves the reader past that
/// line, so the next batch goes on with the next one — a line too long included, whose
/// rest is stepped over without being kept; an error of the file (line 0: it cannot be
/// read, its gzip is damaged) ends it.
package struct CorpusReader {
    /// The longest line read, unless a reader is given another limit.
    package static let maximumLineBytes = 65_536
    /// How many entries a batch holds.
    package static let batchSize = 4_096
    /// How much is read from the file at a time.
    package static let chunkBytes = 1 << 16

    private let file: String
    private var bytes: any CorpusBytes
    private let schema: ContextSchema?
    private let total: Int?
    private let lineLimit: Int
    private var buffer: [UInt8] = []
    private var offset = 0
    private var atEnd = false
    private var lineNumber = 0
    private var examinedLines = 0
    /// Whether the bytes up to the next line end belong to a line already refused as too
    /// long, and are dropped as they come.
    private var droppingLongLine = false

    /// A reader of `path` (`-` for standard input).
    /// - Parameters:
    ///   - path: The corpus.
    ///   - schema: The context schema lines' contexts must fit.
    package init(path: String, schema: ContextSchema? = nil) throws(CorpusError) {
        file = path
        bytes = try CorpusSource.open(path)
        self.schema = schema
        total = path == "-" ? nil : (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        lineLimit = Self.maximumLineBytes
    }

    /// A reader of `bytes`, already opened (``CorpusSource/sniffed(_:file:)`` inflates gzip).
    /// - Parameters:
    ///   - bytes: The corpus's bytes.
    ///   - file: The name errors give.
    ///   - schema: The context schema lines' contexts must fit.
    ///   - maximumLineBytes: The longest line read (at least 1).
    package init(
        bytes: any CorpusBytes, file: String, schema: ContextSchema? = nil,
        maximumLineBytes: Int = Self.maximumLineBytes
    ) {
        self.file = file
        self.bytes = bytes
        self.schema = schema
        total = nil
        lineLimit = max(1, maximumLineBytes)
    }

    /// How many bytes of the file were read, and how many it has (`nil` for standard input).
    package var progress: (read: Int, total: Int?) { (bytes.consumed, total) }

    /// The bytes read and not yet handed out as lines: at most the line limit and a chunk.
    package var heldBytes: Int { buffer.count }

    /// Lines read so far.
    package var lines: Int { lineNumber }

    /// Lines looked at one by one so far: every line but the empty ones (`\n`, `\r\n`),
    /// which are skipped a byte at a time.
    package var examined: Int { examinedLines }

    /// The next batch — empty at the end of the file — and, when a line cannot be read,
    /// the error: the entries before that line are still returned, to be decided first.
    package mutating func nextBatch(limit: Int = batchSize) -> (entries: [CorpusEntry], failure: CorpusError?) {
        var entries: [CorpusEntry] = []
        do {
            while entries.count < limit, let line = try nextLine() {
                if let entry = try entry(line) { entries.append(entry) }
            }
        } catch {
            return (entries, error)
        }
        return (entries, nil)
    }

    /// The next line that is not blank or a comment, as the JSON object it must be (a
    /// decision log's line, whatever its kind), with its number; `nil` at the end.
    /// - Throws: `CorpusError` for a line that is not a JSON object, too long, or a file
    ///   that cannot be read; the next call goes on after that line.
    package mutating func nextObject() throws(CorpusError) -> (fields: [String: RuleValue], line: Int)? {
        while let bytes = try nextLine() {
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) || bytes.first == UInt8(ascii: "#") { continue }
            let document: RuleValue
            do { document = try CanonicalJSON.decode(Array(bytes)) } catch {
                throw self.error("not a JSON object: \(error)")
            }
            guard case .table(let fields) = document else { throw error("not a JSON object") }
            return (fields, lineNumber)
        }
        return nil
    }

    /// The next line's bytes without its end, or `nil` at the end of the file.
    private mutating func nextLine() throws(CorpusError) -> ArraySlice<UInt8>? {
        while true {
            if droppingLongLine {
                if let end = buffer[offset...].firstIndex(of: 0x0A) {
                    offset = end + 1
                    droppingLongLine = false
                } else {
                    (buffer, offset) = ([], 0)
                    if atEnd {
                        droppingLongLine = false
                        return nil
                    }
                    let chunk = try bytes.next()
                    if chunk.isEmpty { atEnd = true } else { buffer = chunk }
                    continue
                }
            }
            skipEmptyLines()
            if let end = buffer[offset...].firstIndex(of: 0x0A) {
                let line = buffer[offset..<end]
                offset = end + 1
                lineNumber += 1
                examinedLines += 1
                try checkLength(line.count, line: lineNumber)
                return line.last == 0x0D ? line.dropLast() : line
            }
            if atEnd {
                guard offset < buffer.count else { return nil }
                let line = buffer[offset...]
                offset = buffer.count
                lineNumber += 1
                examinedLines += 1
                try checkLength(line.count, line: lineNumber)
                return line
            }
            // A line still without its end is not read past the limit: the rest of it is
            // dropped as it comes, if the reader is asked for more.
            if buffer.count - offset > lineLimit {
                lineNumber += 1
                examinedLines += 1
                (buffer, offset) = ([], 0)
                droppingLongLine = true
                try checkLength(lineLimit + 1, line: lineNumber)
            }
            buffer.removeFirst(offset)
            offset = 0
            let chunk = try bytes.next()
            if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
        }
    }

    /// Counts and steps over the empty lines at `offset`. A gzip of nothing but newlines
    /// inflates about a thousand times: each such line had cost a slice, a `String` and a
    /// trim (~4 MB/s, over 120 s for 1 MB compressed); now it costs a compare or two.
    private mutating func skipEmptyLines() {
        let (end, count) = buffer.withUnsafeBufferPointer { bytes -> (Int, Int) in
            var index = offset
            var count = 0
            while index < bytes.count {
                if bytes[index] == 0x0A {
                    index += 1
                } else if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                    index += 2
                } else {
                    break
                }
                count += 1
            }
            return (index, count)
        }
        offset = end
        lineNumber += count
    }

    private func checkLength(_ count: Int, line: Int) throws(CorpusError) {
        guard count <= lineLimit else {
            throw CorpusError(
                file: file, line: line,
                message: "the line is longer than \(lineLimit) bytes; a corpus line is one request")
        }
    }

    private func entry(_ bytes: ArraySlice<UInt8>) throws(CorpusError) -> CorpusEntry? {
        // Blank (spaces and tabs only): skipped before any text is made of it.
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        if text.isEmpty || text.hasPrefix("#") { return nil }
        guard text.hasPrefix("{") else {
            guard !text.contains(where: \.isWhitespace) else {
                throw error("a URL has no spaces; write one URL per line, or a JSON object {\"url\": …}")
            }
            return CorpusEntry(url: text, params: [:], line: lineNumber)
        }
        let document: RuleValue
        do { document = try CanonicalJSON.decode(Array(bytes)) } catch {
            throw self.error("not a JSON object: \(error)")
        }
        guard case .table(let fields) = document else { throw error("not a JSON object") }
        // A decision log line (JunctionShipping's DecisionLogLine) is a corpus line with
        // what was decided besides; the log's other lines (device status) are no request.
        switch fields["kind"] {
        case nil, .string("decision")?: break
        case .string?: return nil
        default: throw error("\"kind\" is not text")
        }
        // The unknown field first in sorted order: a dictionary's own order differs from one
        // reading of the same line to the next, and so did the error.
        if let key = fields.keys.filter({ !Self.fields.contains($0) }).min() {
            throw error(
                "unknown field \"\(key.prefix(40))\"; a corpus line has url, source, context and params (and a "
                    + "decision log's line kind, decision, bundle, app_version and time)")
        }
        guard case .string(let url)? = fields["url"], !url.isEmpty else {
            throw error("\"url\" is missing or not text")
        }
        var entry = CorpusEntry(url: url, params: [:], line: lineNumber)
        switch fields["source"] {
        case .string(let source)?: entry.source = source
        case nil, .nil?: break
        default: throw error("\"source\" is not text")
        }
        switch fields["context"] {
        case .table(let context)?:
            if let problem = schema?.validate(ContextSnapshot(context)).first {
                throw error("context: \(problem)")
            }
            entry.context = context
        case nil, .nil?: break
        default: throw error("\"context\" is not an object")
        }
        switch fields["params"] {
        case .table(let params)?: entry.params = params
        case nil, .nil?: break
        default: throw error("\"params\" is not an object")
        }
        return entry
    }

    /// The fields a line may have: a corpus line's, and a decision log line's.
    package static let fields: Set<String> = [
        "url", "source", "context", "params", "kind", "decision", "bundle", "app_version", "time",
    ]

    private func error(_ message: String) -> CorpusError { CorpusError(file: file, line: lineNumber, message: message) }
}
