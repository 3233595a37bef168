import JunctionCore

/// Checks a batch's inflated bytes as they come: every line is one JSON object (read as
/// strictly as the corpus reader reads it), blank lines aside, none longer than the cap; and
/// counts them. Only the line being read is kept, so memory is one line whatever the batch.
struct BatchLines {
    /// Why a batch is refused.
    enum Refusal: Error, Equatable {
        /// A line is not a JSON object.
        case notAnObject(line: Int, reason: String)
        /// A line is longer than the cap.
        case lineTooLong(line: Int, maximumBytes: Int)
        /// The batch inflates past the cap.
        case tooLarge(maximumBytes: Int)
    }

    private let maximumLineBytes: Int
    private let maximumBytes: Int
    private var line: [UInt8] = []
    /// Bytes taken so far.
    private(set) var bytes = 0
    /// Lines seen so far, blank ones included: the number of the line being read, less one.
    private(set) var lineNumber = 0
    /// JSON objects seen so far.
    private(set) var objects = 0
    /// Whether the last byte taken was a line end (or none was taken).
    private(set) var endsWithLineEnd = true

    /// A checker of one batch.
    /// - Parameters:
    ///   - maximumLineBytes: The longest line.
    ///   - maximumBytes: The most the batch may hold.
    init(maximumLineBytes: Int, maximumBytes: Int) {
        self.maximumLineBytes = maximumLineBytes
        self.maximumBytes = maximumBytes
        line.reserveCapacity(min(maximumLineBytes, 4_096))
    }

    /// Takes the next bytes of the batch.
    /// - Throws: ``Refusal`` at the first line that is not an object or is too long, or
    ///   when the batch grows past its cap.
    mutating func take(_ chunk: ArraySlice<UInt8>) throws(Refusal) {
        guard !chunk.isEmpty else { return }
        bytes += chunk.count
        guard bytes <= maximumBytes else { throw .tooLarge(maximumBytes: maximumBytes) }
        var start = chunk.startIndex
        while start < chunk.endIndex {
            if line.isEmpty {
                // Empty lines cost a compare each: a bomb of line ends inflates to millions.
                let next = Self.pastLineEnds(chunk, from: start)
                lineNumber += next - start
                start = next
                if start == chunk.endIndex { break }
            }
            guard let end = chunk[start...].firstIndex(of: 0x0A) else {
                try append(chunk[start...])
                break
            }
            try append(chunk[start..<end])
            try finishLine()
            start = end + 1
        }
        endsWithLineEnd = chunk.last == 0x0A
    }

    /// Ends the batch: checks its last line when no line end followed it.
    /// - Throws: ``Refusal`` when that line is not an object.
    mutating func finish() throws(Refusal) {
        if !line.isEmpty { try finishLine() }
    }

    /// The index of the first byte from `start` that is not a line end.
    private static func pastLineEnds(_ chunk: ArraySlice<UInt8>, from start: Int) -> Int {
        chunk.withUnsafeBufferPointer { bytes in
            var index = start - chunk.startIndex
            while index < bytes.count && bytes[index] == 0x0A { index += 1 }
            return chunk.startIndex + index
        }
    }

    private mutating func append(_ bytes: ArraySlice<UInt8>) throws(Refusal) {
        guard line.count + bytes.count <= maximumLineBytes else {
            throw .lineTooLong(line: lineNumber + 1, maximumBytes: maximumLineBytes)
        }
        line.append(contentsOf: bytes)
    }

    private mutating func finishLine() throws(Refusal) {
        lineNumber += 1
        defer { line.removeAll(keepingCapacity: true) }
        // Blank lines (spaces, tabs, a CR before the LF) are skipped by every reader.
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        let text = line.last == 0x0D ? Array(line.dropLast()) : line
        let value: RuleValue
        do { value = try CanonicalJSON.decode(text) } catch {
            throw .notAnObject(line: lineNumber, reason: "\(error)")
        }
        guard case .table = value else {
            throw .notAnObject(line: lineNumber, reason: "a JSON value that is not an object")
        }
        objects += 1
    }
}
