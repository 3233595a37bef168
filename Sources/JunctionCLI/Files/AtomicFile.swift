import Foundation
import JunctionShipping

#if canImport(Glibc)
    import Glibc

    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin

    private let systemWrite = Darwin.write
#endif

/// Writes files whole or not at all: a temporary file beside the target, written and
/// synced, then renamed over it, and the folder synced. A reader sees the old file or the
/// new one, never part of one, even when the machine stops halfway.
enum AtomicFile {
    /// Replaces (or creates) `path` with `bytes`.
    /// - Parameters:
    ///   - modified: The modification time the file appears with, in whole seconds since
    ///     1970; the time of writing when `nil`.
    /// - Throws: ``AtomicFileError`` (`cannot write PATH: reason`); the temporary file is
    ///   removed, and `path` keeps what it had.
    static func write(
        _ bytes: [UInt8], to path: String, mode: mode_t = 0o644, modified: Int? = nil
    ) throws(AtomicFileError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var template = Array((folder + "/." + url.lastPathComponent + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw AtomicFileError(path: path, errno: errno) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: Int32?
        var offset = 0
        while failure == nil, offset < bytes.count {
            do {
                let written = try SystemCall.retryingOnInterrupt {
                    bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
                }
                if written > 0 { offset += written } else { failure = EIO }
            } catch { failure = error.code }
        }
        if failure == nil, fchmod(fd, mode) != 0 { failure = errno }
        if failure == nil, let modified {
            // Set before the rename: the file never appears with another time.
            let times = [timespec(tv_sec: modified, tv_nsec: 0), timespec(tv_sec: modified, tv_nsec: 0)]
            if futimens(fd, times) != 0 { failure = errno }
        }
        if failure == nil, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw AtomicFileError(path: path, errno: failure)
        }
        // The rename is durable only once the folder's entry is on disk.
        let directory = open(folder, O_RDONLY | O_DIRECTORY)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }
}
