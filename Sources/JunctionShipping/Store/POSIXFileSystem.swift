/// The real file system, through POSIX calls (`open`, `write`, `fsync`, `rename`, `fsync` of
/// the directory), each retried on `EINTR`; a failure names the call, the path and the
/// `errno` text.
public struct POSIXFileSystem: StoreFileSystem {
    /// The real file system.
    public init() {}

    /// Reads a regular file, refusing it unread when larger than `maximumBytes`, and refusing
    /// anything else in its place unopened or unread: `lstat` first, then `open` with
    /// `O_NONBLOCK | O_NOFOLLOW`, then `fstat`.
    /// - Parameters:
    ///   - path: The file.
    ///   - maximumBytes: The most bytes accepted.
    /// - Returns: The bytes.
    /// - Throws: `StoreError` `.notFound`, `.oversize`, `.corrupt` (a FIFO, a device, a
    ///   symbolic link, a directory) or `.io`.
    public func read(_ path: String, maximumBytes: Int) throws(StoreError) -> [UInt8] {
        try POSIX.readFile(path, maximumBytes: maximumBytes)
    }

    /// Removes whatever has the name `path`, creates it anew (mode 0600, `O_EXCL`,
    /// `O_NOFOLLOW`), writes `contents`, `fsync`s and closes it.
    /// - Parameters:
    ///   - path: The file.
    ///   - contents: The bytes.
    /// - Throws: `StoreError` `.io`.
    public func createFile(_ path: String, contents: [UInt8]) throws(StoreError) {
        try POSIX.writeFile(path, contents: contents)
    }

    /// `rename(2)`.
    /// - Parameters:
    ///   - source: The existing file.
    ///   - destination: Its new name.
    /// - Throws: `StoreError` `.notFound` or `.io`.
    public func rename(_ source: String, to destination: String) throws(StoreError) {
        try POSIX.rename(source, to: destination)
    }

    /// Opens the directory and `fsync`s it.
    /// - Parameter path: The directory.
    /// - Throws: `StoreError` `.io`.
    public func synchronizeDirectory(_ path: String) throws(StoreError) {
        try POSIX.synchronizeDirectory(path)
    }

    /// `unlink(2)`.
    /// - Parameter path: The file.
    /// - Throws: `StoreError` `.notFound` or `.io`.
    public func remove(_ path: String) throws(StoreError) {
        try POSIX.remove(path)
    }

    /// `mkdir(2)` with mode 0700.
    /// - Parameter path: The directory.
    /// - Returns: `false` when the name already exists.
    /// - Throws: `StoreError` `.io`.
    public func makeDirectory(_ path: String) throws(StoreError) -> Bool {
        try POSIX.makeDirectory(path)
    }

    /// `opendir(3)`/`readdir(3)`, without `.` and `..`.
    /// - Parameters:
    ///   - path: The directory.
    ///   - maximumEntries: The most names accepted.
    /// - Returns: The names.
    /// - Throws: `StoreError` `.notFound`, `.oversize` or `.io`.
    public func list(_ path: String, maximumEntries: Int) throws(StoreError) -> [String] {
        try POSIX.list(path, maximumEntries: maximumEntries)
    }
}
