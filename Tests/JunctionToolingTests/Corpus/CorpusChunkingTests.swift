import JunctionShipping
import JunctionTooling
import Testing

/// A corpus reads the same whatever size its chunks come in — a file's 64 KiB reads, a
/// pipe's short ones, gzip's inflated pieces — and holds at most a line's limit and a chunk.
@Suite struct CorpusChunkingTests {
    /// Everything a reader gives, to the end or the file's error: entries as `line: url`,
    /// errors as `line: message`.
    static func read(_ stored: [UInt8], chunkSize: Int, lineLimit: Int = CorpusReader.maximumLineBytes) throws
        -> (events: [String], mostHeld: Int)
    {
        var reader = CorpusReader(
            bytes: try CorpusSource.sniffed(MemoryBytes(stored, chunkSize: chunkSize), file: "c.jsonl"),
            file: "c.jsonl", maximumLineBytes: lineLimit)
        var events: [String] = []
        var mostHeld = 0
        while true {
            let (entries, failure) = reader.nextBatch(limit: 2)
            mostHeld = max(mostHeld, reader.heldBytes)
            events += entries.map { "\($0.line): \($0.url)" }
            if let failure {
                events.append("\(failure.line): \(failure.message)")
                if failure.line == 0 { break }
            } else if entries.isEmpty {
                break
            }
        }
        return (events, mostHeld)
    }

    static let lines = Array(
        "myapp://a\r\n\n# note\n{\"url\":\"myapp://b\",\"params\":{\"x\":\"1\"}}\nnot a url\n\n\r\nmyapp://c".utf8)

    @Test(arguments: [1, 2, 3, 5, 16, 1 << 16])
    func chunkBoundariesChangeNothing(chunkSize: Int) throws {
        let expected = [
            "1: myapp://a", "4: myapp://b",
            "5: a URL has no spaces; write one URL per line, or a JSON object {\"url\": …}", "8: myapp://c",
        ]
        #expect(try Self.read(Self.lines, chunkSize: chunkSize).events == expected)
        #expect(try Self.read(GzipCompression.member(Self.lines), chunkSize: chunkSize).events == expected)
    }

    /// A damaged gzip's lines before the damage are read whatever the chunks: the reader
    /// had dropped what zlib inflated in the call that found the damage — with a file read
    /// 64 KiB at a time, every line of a small file whose trailer is wrong. (The last line,
    /// without its end, may have been cut: the damage ends the file before it.)
    @Test(arguments: [1, 7, 64, 1 << 16])
    func aDamagedGzipGivesItsLinesBeforeTheDamage(chunkSize: Int) throws {
        var damaged = GzipCompression.member(Self.lines)
        damaged[damaged.count - 8] ^= 0xFF  // the CRC-32
        let events = try Self.read(damaged, chunkSize: chunkSize).events
        #expect(events.prefix(3) == ["1: myapp://a", "4: myapp://b", events[2]])
        #expect(events.count == 4)
        #expect(events.last?.hasPrefix("0: gzip: the compressed data is damaged near byte") == true)
        #expect(events.last?.hasSuffix("incorrect data check") == true)
    }

    /// A line far over the limit is stepped over in chunk-sized pieces, never held whole.
    @Test(arguments: [1, 10, 100, 4_096])
    func aReaderHoldsAtMostItsLineLimitAndAChunk(chunkSize: Int) throws {
        let text = Array(("myapp://" + String(repeating: "a", count: 10_000) + "\nmyapp://short\n").utf8)
        let (events, mostHeld) = try Self.read(text, chunkSize: chunkSize, lineLimit: 100)
        #expect(events == ["1: the line is longer than 100 bytes; a corpus line is one request", "2: myapp://short"])
        #expect(mostHeld <= 100 + max(2, chunkSize))
    }

    /// A line with several unknown fields names the same one every time it is read (the
    /// first in sorted order): it had named whichever its dictionary happened to hold first,
    /// which differs between two readings of one line — the `corpus-line` fuzz target's
    /// finding, as two chunkings of one file disagreed.
    @Test func aLineWithUnknownFieldsNamesTheSameOneEveryTime() throws {
        let line = Array(#"{"url": "myapp://a", "zeta": 1, "alpha": 2, "mid": 3, "beta": 4}"#.utf8)
        let messages = try Set((0..<50).map { _ in try Self.read(line, chunkSize: 1 << 16).events })
        #expect(
            messages == [
                [
                    #"1: unknown field "alpha"; a corpus line has url, source, context and params (and a decision log's line kind, decision, bundle, app_version and time)"#
                ]
            ])
    }
}
