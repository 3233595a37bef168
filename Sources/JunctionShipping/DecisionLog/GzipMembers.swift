import CZlib

/// Inflates a sequence of whole gzip members — an uploaded body, or the file being appended
/// to — a chunk at a time, handing each chunk on and never keeping what it inflated: what
/// `junction logs serve` checks uploads with, beside ``GzipCompression`` which makes them.
///
/// The window is gzip's (16 + `MAX_WBITS`), as the CLI's `GzipBytes` reads files: what this accepts,
/// the corpus reader reads.
package final class GzipMembers {
    /// How much is inflated at a time.
    package static let chunkBytes = 1 << 16

    /// Where inflating stopped.
    package enum Outcome: Equatable {
        /// Every byte read: whole members, the last one ended.
        case complete
        /// The bytes ended inside a member: cut short. `validBytes` of them are whole members.
        case cutShort(validBytes: Int)
        /// A member is damaged (or what follows one is not gzip) at `validBytes`, the end of
        /// the last whole member; `reason` is zlib's.
        case damaged(validBytes: Int, reason: String)
    }

    /// zlib keeps pointers into its stream: it lives at one address from init to deinit.
    private let stream: UnsafeMutablePointer<z_stream>
    private var output: [UInt8]

    /// An inflater; zlib allocates its state (about 44 KiB) here.
    package init() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = jz_inflateInit2(stream, 16 + MAX_WBITS)
        precondition(status == Z_OK, "zlib's inflate did not start: \(status)")
        output = [UInt8](repeating: 0, count: Self.chunkBytes)
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Inflates the bytes `source` hands out, member after member, handing every inflated
    /// chunk to `sink` as it comes; `sink` throwing stops it there, so a cap is applied
    /// while inflating, never after.
    /// - Parameters:
    ///   - source: The next bytes (an uploaded body whole, or a file a chunk at a time);
    ///     empty at the end.
    ///   - sink: Takes each inflated chunk.
    /// - Returns: Where it stopped.
    /// - Throws: What `source` or `sink` throws.
    package func inflate<Failure: Error>(
        from source: () throws(Failure) -> [UInt8], into sink: (ArraySlice<UInt8>) throws(Failure) -> Void
    ) throws(Failure) -> Outcome {
        inflateReset(stream)
        var input: [UInt8] = []
        var offset = 0
        // Bytes of the source before `input`, and the end of the last whole member.
        var before = 0
        var memberEnd = 0
        var inMember = false
        while true {
            if offset == input.count {
                before += input.count
                input = try source()
                offset = 0
                if input.isEmpty { return inMember ? .cutShort(validBytes: memberEnd) : .complete }
            }
            inMember = true
            let (status, produced, consumed) = step(input, from: offset)
            offset += consumed
            if produced > 0 { try sink(output[..<produced]) }
            switch status {
            case Z_STREAM_END:
                memberEnd = before + offset
                inMember = false
                inflateReset(stream)
            case Z_OK where consumed > 0 || produced > 0:
                break
            default:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                return .damaged(validBytes: memberEnd, reason: reason)
            }
        }
    }

    private func step(_ input: [UInt8], from offset: Int) -> (status: Int32, produced: Int, consumed: Int) {
        let available = input.count - offset
        return input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                // zlib reads through next_in and never writes there (it is z_const).
                stream.pointee.next_in = source.baseAddress.map { UnsafeMutablePointer(mutating: $0 + offset) }
                stream.pointee.avail_in = UInt32(available)
                stream.pointee.next_out = target.baseAddress
                stream.pointee.avail_out = UInt32(target.count)
                let status = CZlib.inflate(stream, Z_NO_FLUSH)
                stream.pointee.next_in = nil
                stream.pointee.next_out = nil
                return (status, target.count - Int(stream.pointee.avail_out), available - Int(stream.pointee.avail_in))
            }
        }
    }
}
