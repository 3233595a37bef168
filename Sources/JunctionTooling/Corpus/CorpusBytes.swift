import Foundation

/// Where a corpus's bytes come from, a chunk at a time: a file, standard input or memory,
/// plain or gzip — told by the first two bytes (`1f 8b`), whatever the file is called.
package protocol CorpusBytes {
    /// The next chunk of bytes; empty at the end, and from then on.
    mutating func next() throws(CorpusError) -> [UInt8]
    /// How many bytes were read so far (compressed ones, for gzip).
    var consumed: Int { get }
}

/// The bytes of a file or standard input, as they are.
struct FileBytes: CorpusBytes {
    let handle: FileHandle
    private(set) var consumed = 0

    mutating func next() throws(CorpusError) -> [UInt8] {
        let chunk = Array(handle.readData(ofLength: CorpusReader.chunkBytes))
        consumed += chunk.count
        return chunk
    }
}

/// Bytes in memory, handed out `chunkSize` at a time — for tests and the fuzzer, which
/// vary where chunks end.
package struct MemoryBytes: CorpusBytes {
    private let bytes: [UInt8]
    private let chunkSize: Int
    package private(set) var consumed = 0

    /// - Parameters:
    ///   - bytes: All the bytes.
    ///   - chunkSize: The largest chunk handed out (at least 1).
    package init(_ bytes: [UInt8], chunkSize: Int = CorpusReader.chunkBytes) {
        self.bytes = bytes
        self.chunkSize = max(1, chunkSize)
    }

    package mutating func next() throws(CorpusError) -> [UInt8] {
        let end = min(bytes.count, consumed + chunkSize)
        defer { consumed = end }
        return Array(bytes[consumed..<end])
    }
}

/// Bytes read ahead — to tell gzip from text — handed out before the rest of a source.
struct PrefixedBytes: CorpusBytes {
    var pending: [UInt8]
    var rest: any CorpusBytes
    var consumed: Int { rest.consumed }

    mutating func next() throws(CorpusError) -> [UInt8] {
        if !pending.isEmpty {
            defer { pending = [] }
            return pending
        }
        return try rest.next()
    }
}

/// Opens a corpus: `-` is standard input; gzip is inflated as it is read.
package enum CorpusSource {
    /// The bytes of `path` (`-`: standard input), inflated when they are gzip.
    /// - Throws: `CorpusError` (line 0) when the file cannot be read.
    package static func open(_ path: String) throws(CorpusError) -> any CorpusBytes {
        let handle: FileHandle
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                let opened = FileHandle(forReadingAtPath: path)
            else {
                throw CorpusError(file: path, line: 0, message: "cannot be read")
            }
            handle = opened
        }
        return try sniffed(FileBytes(handle: handle), file: path)
    }

    /// `bytes`, inflated when their first two bytes are gzip's (`1f 8b`), else as they are.
    /// - Parameter file: The name errors give.
    /// - Throws: `CorpusError` (line 0) when the bytes cannot be read or zlib cannot start.
    package static func sniffed(_ bytes: any CorpusBytes, file: String) throws(CorpusError) -> any CorpusBytes {
        var source = bytes
        var first: [UInt8] = []
        while first.count < 2 {
            let chunk = try source.next()
            if chunk.isEmpty { break }
            first += chunk
        }
        let read = PrefixedBytes(pending: first, rest: source)
        if first.count >= 2, first[0] == 0x1F, first[1] == 0x8B {
            return try GzipBytes(compressed: read, file: file)
        }
        return read
    }
}
