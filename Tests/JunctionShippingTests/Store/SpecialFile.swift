import Foundation
import JunctionCore

/// What can have a store file's name without being a regular file: each a way to hang, or
/// to lead out of, a store that opened files blindly.
enum SpecialFile: String, CaseIterable, CustomStringConvertible, Sendable {
    /// A FIFO: a blocking `open(2)` waits for a writer, forever.
    case fifo
    /// A symbolic link to `/dev/zero`, which reads without end.
    case linkToDevice
    /// A symbolic link to a file outside the store holding the very bytes expected.
    case linkOutside
    /// A character device made in place (`/dev/zero`'s numbers; needs root, else skipped).
    case characterDevice
    /// A directory.
    case directory

    var description: String { rawValue }

    /// What the store's refusal calls it.
    var kind: String {
        switch self {
        case .fifo: "a FIFO"
        case .linkToDevice, .linkOutside: "a symbolic link"
        case .characterDevice: "a character device"
        case .directory: "a directory"
        }
    }

    /// Replaces `path` with this kind of file; a link outside goes to `outside`, which
    /// gets the bytes `path` had. `false` when this system does not let the test make it.
    func make(at path: String, outside: String) throws -> Bool {
        let bytes = FileManager.default.contents(atPath: path)
        try? FileManager.default.removeItem(atPath: path)
        switch self {
        case .fifo:
            return mkfifo(path, 0o600) == 0
        case .linkToDevice:
            return symlink("/dev/zero", path) == 0
        case .linkOutside:
            _ = FileManager.default.createFile(atPath: outside, contents: bytes ?? Data("outside".utf8))
            return symlink(outside, path) == 0
        case .characterDevice:
            #if os(Linux)
                return mknod(path, S_IFCHR | 0o600, dev_t(1 << 8 | 5)) == 0
            #else
                return false
            #endif
        case .directory:
            return mkdir(path, 0o700) == 0
        }
    }

    /// `body`'s result, or `nil` when it has not returned within `seconds` (it is then left
    /// running: a blocked `open` cannot be called off).
    static func within<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () throws -> T) throws -> T? {
        let result = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let outcome = Result { try body() }
            result.withLock { $0 = outcome }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return try result.withLock { $0 }?.get()
    }
}
