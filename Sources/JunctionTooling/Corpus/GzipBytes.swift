import CZlib

/// The inflated bytes of a gzip file (several members one after another included, as
/// `cat a.gz b.gz` makes), a chunk at a time: memory stays at two buffers whatever the
/// file inflates to, and the reader's line cap bounds what is kept of it.
package final class GzipBytes: CorpusBytes {
    private var compressed: any CorpusBytes
    private let file: String
    /// zlib keeps pointers into its stream: it lives at one address from init to deinit.
    private let stream: UnsafeMutablePointer<z_stream>
    private var input: [UInt8] = []
    private var inputOffset = 0
    package var consumed: Int { compressed.consumed }
    private var inputEnded = false
    /// Whether the last member ended, so the file may end here.
    private var memberEnded = false
    private var finished = false
    /// The damage found after inflating the chunk last handed out, thrown by the next call.
    private var pendingFailure: CorpusError?
    /// Where zlib inflates to, allocated once: a pipe's reads can be a few bytes each, and
    /// a fresh 64 KiB buffer a call had cost more than inflating them.
    private var output = [UInt8](repeating: 0, count: CorpusReader.chunkBytes)

    /// Whether zlib started on `stream`, so `deinit` ends it.
    private var started = false

    /// - Parameters:
    ///   - compressed: The gzip bytes.
    ///   - file: The file's name, for errors.
    ///   - windowBits: zlib's window: 16 + `MAX_WBITS` reads a gzip header and trailer
    ///     (CRC-32 and length are checked); tests pass what zlib refuses.
    /// - Throws: `CorpusError` when zlib does not start.
    package init(compressed: any CorpusBytes, file: String, windowBits: Int32 = 16 + MAX_WBITS) throws(CorpusError) {
        self.compressed = compressed
        self.file = file
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // Every stored property is set: throwing from here on runs `deinit`, which frees
        // the stream (freeing it here too would free it twice).
        guard jz_inflateInit2(stream, windowBits) == Z_OK else {
            throw CorpusError(file: file, line: 0, message: "gzip: zlib could not start")
        }
        started = true
    }

    deinit {
        if started { inflateEnd(stream) }
        stream.deallocate()
    }

    package func next() throws(CorpusError) -> [UInt8] {
        if let failure = pendingFailure {
            pendingFailure = nil
            throw failure
        }
        while !finished {
            if inputOffset == input.count && !inputEnded {
                input = try compressed.next()
                inputOffset = 0
                if input.isEmpty { inputEnded = true }
            }
            if inputOffset == input.count && inputEnded {
                finished = true
                guard memberEnded else {
                    throw CorpusError(
                        file: file, line: 0,
                        message: "gzip: the file ends inside a compressed stream (after \(self.consumed) bytes): "
                            + "it was cut short; compress it again")
                }
                break
            }
            if memberEnded {
                // Another member follows the last one's trailer.
                inflateReset(stream)
                memberEnded = false
            }
            let (status, produced, used) = inflateChunk()
            inputOffset += used
            switch status {
            case Z_STREAM_END:
                memberEnded = true
            case Z_OK, Z_BUF_ERROR:
                break
            default:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "code \(status)"
                let failure = CorpusError(
                    file: file, line: 0,
                    message:
                        "gzip: the compressed data is damaged near byte \(self.consumed - (input.count - inputOffset)): "
                        + reason)
                finished = true
                // What inflated before the damage is handed out first, as it would have been
                // had the input come in smaller chunks; the next call throws.
                guard produced == 0 else {
                    pendingFailure = failure
                    return Array(output[..<produced])
                }
                throw failure
            }
            if produced > 0 { return Array(output[..<produced]) }
        }
        return []
    }

    /// One call to `inflate` from the unread input into `output`.
    private func inflateChunk() -> (status: Int32, produced: Int, consumed: Int) {
        let available = input.count - inputOffset
        return input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.pointee.next_in = source.baseAddress.map { $0 + inputOffset }
                stream.pointee.avail_in = UInt32(available)
                stream.pointee.next_out = target.baseAddress
                stream.pointee.avail_out = UInt32(target.count)
                let status = inflate(stream, Z_NO_FLUSH)
                let produced = target.count - Int(stream.pointee.avail_out)
                let consumed = available - Int(stream.pointee.avail_in)
                // zlib's pointers must not outlive the buffers they point into.
                stream.pointee.next_in = nil
                stream.pointee.next_out = nil
                return (status, produced, consumed)
            }
        }
    }
}
