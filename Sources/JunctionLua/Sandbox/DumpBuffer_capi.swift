internal import CLua

internal import Foundation  // free, realloc, memcpy

/// Bytes `lua_dump` writes, in memory this code owns (no Swift references, since
/// the writer runs inside Lua).
struct DumpBuffer {
    var bytes: UnsafeMutableRawPointer?
    var count = 0
    var capacity = 0
    /// The most bytes it takes: a dump that would pass it stops (the writer returns 1).
    var limit = Int.max

    /// The `lua_Writer` that appends to the `DumpBuffer` its user data points at;
    /// returns 1, which stops the dump, when memory runs out or ``limit`` would be passed.
    static let writer: lua_Writer = { _, chunk, size, userData in
        let buffer = userData.unsafelyUnwrapped.assumingMemoryBound(to: DumpBuffer.self)
        guard size <= buffer.pointee.limit - buffer.pointee.count else { return 1 }
        if buffer.pointee.count + size > buffer.pointee.capacity {
            let capacity = max(buffer.pointee.capacity * 2, buffer.pointee.count + size, 256)
            guard let grown = realloc(buffer.pointee.bytes, capacity) else { return 1 }
            buffer.pointee.bytes = grown
            buffer.pointee.capacity = capacity
        }
        if size > 0, let chunk {
            memcpy(buffer.pointee.bytes.unsafelyUnwrapped + buffer.pointee.count, chunk, size)
        }
        buffer.pointee.count += size
        return 0
    }

    /// The bytes written so far.
    var contents: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: bytes, count: count) }

    mutating func release() {
        free(bytes)
        bytes = nil
    }
}
