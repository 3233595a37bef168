import CZlib

/// Compresses bytes into one gzip member, which appended to a gzip file is read as part of
/// it (RFC 1952: a file is members one after another): an upload batch's body, and what
/// `junction logs serve` appends to its files.
package enum GzipCompression {
    /// One gzip member holding `bytes`.
    /// - Parameter bytes: What the member inflates to.
    /// - Returns: The member: header, deflated data, CRC-32 and length.
    package static func member(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        let started = jz_deflateInit2(&stream, Z_DEFAULT_COMPRESSION, 16 + MAX_WBITS)
        precondition(started == Z_OK, "zlib's deflate did not start: \(started)")
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        var input = bytes
        let produced = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                // deflateBound is enough for one call to finish the member.
                let status = deflate(&stream, Z_FINISH)
                precondition(status == Z_STREAM_END, "zlib's deflate did not finish in its bound: \(status)")
                stream.next_in = nil
                stream.next_out = nil
                return target.count - Int(stream.avail_out)
            }
        }
        output.removeSubrange(produced...)
        return output
    }

    /// A member holding one line end: what ends a gzip body whose last line has none, so
    /// the next batch appended starts a line of its own.
    package static let lineEnd = member([0x0A])
}
