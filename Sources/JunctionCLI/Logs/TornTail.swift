import JunctionShipping

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import JunctionShipping

/// The start's recovery of a `.open` file: a crash can tear the member being appended, at
/// the file's end, and nothing else (``HourlyLogFile``); the file is cut back to its last
/// whole member, which drops only that batch, never answered 2xx.
///
/// Damage further from the end than one batch can be is not a torn write: the file is left
/// as it is and the collector does not start, rather than cut accepted batches.
enum TornTail {
    /// What recovering a file did.
    struct Recovery: Equatable {
        /// The file's size before.
        let size: Int
        /// Its size after: the end of its last whole member.
        let validBytes: Int
    }

    /// Cuts the file at `path` back to its last whole gzip member, and flushes it.
    /// - Parameters:
    ///   - path: A `.open` file.
    ///   - largestTear: The most a torn write can leave: one batch as written.
    /// - Returns: Its size before and after.
    /// - Throws: `CollectorError` when it cannot be read or cut, or is damaged further from
    ///   the end than `largestTear`.
    static func recover(_ path: String, largestTear: Int) throws(CollectorError) -> Recovery {
        let descriptor = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw CollectorError("open \(path): \(SystemCallError(code: errno))") }
        defer { close(descriptor) }
        let size = Int(lseek(descriptor, 0, SEEK_END))
        lseek(descriptor, 0, SEEK_SET)
        func nextChunk() throws(SystemCallError) -> [UInt8] {
            var chunk = [UInt8](repeating: 0, count: GzipMembers.chunkBytes)
            let got = try SystemCall.retryingOnInterrupt {
                chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            }
            chunk.removeSubrange(got...)
            return chunk
        }
        func drop(_: ArraySlice<UInt8>) throws(SystemCallError) {}
        let outcome: GzipMembers.Outcome
        do { outcome = try GzipMembers().inflate(from: nextChunk, into: drop) } catch {
            throw CollectorError("read \(path): \(error)")
        }
        let validBytes: Int
        switch outcome {
        case .complete: return Recovery(size: size, validBytes: size)
        case .cutShort(let valid): validBytes = valid
        case .damaged(let valid, let reason):
            guard size - valid <= largestTear else {
                throw CollectorError(
                    "\(path): damaged at byte \(valid) (\(reason)), \(size - valid) bytes before its end: more than a "
                        + "write torn by a crash; move the file out of the folder and start again")
            }
            validBytes = valid
        }
        guard ftruncate(descriptor, off_t(validBytes)) == 0, fsync(descriptor) == 0 else {
            throw CollectorError("cut \(path) back to \(validBytes) bytes: \(SystemCallError(code: errno))")
        }
        return Recovery(size: size, validBytes: validBytes)
    }
}
