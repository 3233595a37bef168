import Foundation

/// Where a corpus's bytes come from: a file or standard input, read in chunks, plain or
/// gzip — told by the first two bytes (`1f 8b`), whatever the file is called.
protocol CorpusBytes {
    /// The next chunk of bytes; empty at the end.
    mutating func next() throws(CorpusError) -> [UInt8]
    /// How many bytes of the file were read so far (compressed ones, for gzip).
    var consumed: Int { get }
}

/// The bytes of a file, as they are.
struct PlainBytes: CorpusBytes {
    let handle: FileHandle
    /// Bytes read ahead to tell gzip from text, returned first.
    var pending: [UInt8]
    private(set) var consumed: Int

    init(handle: FileHandle, pending: [UInt8]) {
        self.handle = handle
        self.pending = pending
        consumed = pending.count
    }

    mutating func next() throws(CorpusError) -> [UInt8] {
        if !pending.isEmpty {
            defer { pending = [] }
            return pending
        }
        let chunk = Array(handle.readData(ofLength: CorpusReader.chunkBytes))
        consumed += chunk.count
        return chunk
    }
}

/// Opens a corpus: `-` is standard input; gzip is inflated as it is read.
enum CorpusSource {
    static func open(_ path: String) throws(CorpusError) -> any CorpusBytes {
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
        let first = Array(handle.readData(ofLength: CorpusReader.chunkBytes))
        if first.count >= 2, first[0] == 0x1F, first[1] == 0x8B {
            return try GzipBytes(handle: handle, first: first, file: path)
        }
        return PlainBytes(handle: handle, pending: first)
    }
}
