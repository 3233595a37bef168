import JunctionCore
import JunctionShipping
import JunctionTooling

extension FuzzTarget {
    /// Corpus lines — what `junction diff --urls` and `junction logs report` read: URLs,
    /// JSON lines and decision-log lines, plain or gzip, from a file that may be anything.
    ///
    /// The first byte picks how the rest is read: bit 0 gzips the text with
    /// ``GzipCompression/member(_:)`` (bit 1: as two members, cut where the next byte says);
    /// bit 2 reads JSON objects, as `logs report` does (``CorpusReader/nextObject()``),
    /// instead of requests; bit 3 gives the reader a line limit of 1 to 256 bytes (the next
    /// byte) instead of 64 KiB. The next byte sets a chunk size; the rest is the text —
    /// which is itself read as gzip when it starts `1f 8b`, damaged or not.
    ///
    /// Properties: the reader ends; where chunks end changes nothing (the same requests,
    /// objects and errors, in order; a damaged gzip's byte position aside, which zlib finds a
    /// few bytes apart); gzip changes nothing; line numbers rise and never pass the lines
    /// the text has; the reader never holds more than its line limit and a chunk; a request
    /// written back as a JSON line reads back the same.
    static let corpusLine = FuzzTarget(
        name: "corpus-line",
        summary: "corpus lines, plain or gzip: chunking and gzip change nothing, lines rise, memory stays bounded, "
            + "requests round-trip"
    ) { bytes throws(FuzzFailure) in
        var input = FuzzInput(bytes)
        let mode = input.byte()
        let gzip = mode & 1 != 0
        let twoMembers = mode & 2 != 0
        let objects = mode & 4 != 0
        let cut = Int(input.byte())
        let lineLimit = mode & 8 != 0 ? 1 + Int(input.byte()) : CorpusReader.maximumLineBytes
        let chunkSize = 1 + Int(input.byte())
        let text = input.rest()

        var stored = text
        if gzip {
            let split = text.isEmpty ? 0 : cut % (text.count + 1)
            stored =
                twoMembers
                ? GzipCompression.member(Array(text[..<split])) + GzipCompression.member(Array(text[split...]))
                : GzipCompression.member(text)
        }
        let largestChunk = stored.starts(with: [0x1F, 0x8B]) ? CorpusReader.chunkBytes : max(2, chunkSize)
        let whole = try CorpusFuzzing.read(stored, chunkSize: stored.count, objects: objects, lineLimit: lineLimit)
        let chunked = try CorpusFuzzing.read(stored, chunkSize: chunkSize, objects: objects, lineLimit: lineLimit)
        try require(
            whole.events == chunked.events, "where chunks end changes nothing",
            "in chunks of \(chunkSize): \(CorpusFuzzing.firstDifference(whole.events, chunked.events))")
        try require(
            chunked.mostHeld <= lineLimit + largestChunk, "the reader holds at most its line limit and a chunk",
            "\(chunked.mostHeld) bytes held, limit \(lineLimit), chunks of \(largestChunk)")
        if gzip && !text.starts(with: [0x1F, 0x8B]) {
            let plain = try CorpusFuzzing.read(text, chunkSize: chunkSize, objects: objects, lineLimit: lineLimit)
            try require(
                plain.events == whole.events, "gzip changes nothing",
                CorpusFuzzing.firstDifference(plain.events, whole.events))
        }
        // The text's lines are the ones read, unless it is itself gzip, read as such.
        if gzip || !text.starts(with: [0x1F, 0x8B]) {
            try CorpusFuzzing.checkLineNumbers(whole.events, lines: text.count(where: { $0 == 0x0A }) + 1)
        }
        for case .entry(let entry) in whole.events {
            try CorpusFuzzing.checkRoundTrip(entry)
        }
    }
}

/// How the `corpus-line` target reads and compares.
private enum CorpusFuzzing {
    /// The most events one reading keeps: a gzip bomb of short lines stops here, in both
    /// readings alike.
    static let eventCap = 4_096

    /// What a reader gave, in order.
    enum Event: Equatable {
        case entry(CorpusEntry)
        case object([String: RuleValue], line: Int)
        case failure(CorpusError)
    }

    /// One reading: its events, and the most bytes the reader held between calls.
    struct Reading {
        var events: [Event] = []
        var mostHeld = 0
    }

    /// Reads `stored`, handed out `chunkSize` bytes at a time, to the end or ``eventCap``.
    static func read(_ stored: [UInt8], chunkSize: Int, objects: Bool, lineLimit: Int) throws(FuzzFailure)
        -> Reading
    {
        var reading = Reading()
        let bytes: any CorpusBytes
        do throws(CorpusError) {
            bytes = try CorpusSource.sniffed(MemoryBytes(stored, chunkSize: chunkSize), file: "fuzz.jsonl")
        } catch {
            reading.events.append(.failure(comparable(error)))
            return reading
        }
        var reader = CorpusReader(bytes: bytes, file: "fuzz.jsonl", maximumLineBytes: lineLimit)
        // Each call yields an event or ends the file: more calls than events means it does not end.
        for _ in 0...eventCap {
            defer { reading.mostHeld = max(reading.mostHeld, reader.heldBytes) }
            if reading.events.count >= eventCap { return reading }
            var failure: CorpusError?
            if objects {
                do throws(CorpusError) {
                    guard let (fields, line) = try reader.nextObject() else { return reading }
                    reading.events.append(.object(fields, line: line))
                } catch {
                    failure = error
                }
            } else {
                let batch = reader.nextBatch(limit: 3)
                reading.events += batch.entries.map(Event.entry)
                failure = batch.failure
                if batch.entries.isEmpty && failure == nil { return reading }
            }
            if let failure {
                try require(!failure.message.isEmpty, "an error says what is wrong", "line \(failure.line)")
                reading.events.append(.failure(comparable(failure)))
                // An error of the file (line 0) ends it.
                if failure.line == 0 { return reading }
            }
        }
        throw FuzzFailure(
            "the reader ends", "still reading after \(eventCap) calls with \(reading.events.count) events")
    }

    /// `error` as compared between readings: a damaged gzip's byte position left out.
    static func comparable(_ error: CorpusError) -> CorpusError {
        guard error.line == 0, error.message.hasPrefix("gzip: the compressed data is damaged near byte") else {
            return error
        }
        var error = error
        error.message = String(error.message.filter { !$0.isNumber })
        return error
    }

    /// Line numbers rise from event to event (an error of the file, line 0, aside) and stay
    /// within the text.
    static func checkLineNumbers(_ events: [Event], lines: Int) throws(FuzzFailure) {
        var last = 0
        for event in events {
            let line: Int
            switch event {
            case .entry(let entry): line = entry.line
            case .object(_, let number): line = number
            case .failure(let error):
                if error.line == 0 { continue }
                line = error.line
            }
            try require(line > last, "line numbers rise", "line \(line) after line \(last)")
            try require(line <= lines, "a line number is a line of the text", "line \(line) of \(lines)")
            last = line
        }
    }

    /// `entry`, written as a corpus JSON line, reads back as itself.
    static func checkRoundTrip(_ entry: CorpusEntry) throws(FuzzFailure) {
        var fields: [String: RuleValue] = ["url": .string(entry.url), "params": .table(entry.params)]
        if let source = entry.source { fields["source"] = .string(source) }
        if let context = entry.context { fields["context"] = .table(context) }
        let line: [UInt8]
        do throws(CanonicalJSONError) {
            line = try CanonicalJSON.encode(.table(fields))
        } catch {
            throw FuzzFailure("a request read can be written as a line", "\(error)")
        }
        var reader = CorpusReader(bytes: MemoryBytes(line), file: "again.jsonl", maximumLineBytes: line.count)
        let batch = reader.nextBatch()
        var expected = entry
        expected.line = 1
        try require(
            batch.failure == nil && batch.entries == [expected], "a request written as a line reads back the same",
            "\(String(fuzzBytes: line).debugDescription) read as \(batch)")
    }

    /// Where two readings part, for a failure's message.
    static func firstDifference(_ first: [Event], _ second: [Event]) -> String {
        guard let index = zip(first, second).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset else {
            return "\(first.count) events against \(second.count)"
        }
        return "event \(index): \(first[index]) against \(second[index])"
    }
}
