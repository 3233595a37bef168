/// The file operations ``BundleStore`` makes, and nothing else: the seam through which tests
/// fail the k-th operation or slow every one down, and an app could route the store through
/// its own storage layer.
///
/// Paths are absolute POSIX paths the store builds from its directory. Every operation
/// either completes or throws a ``StoreError`` naming the operation, the path and the
/// system's reason; a missing file is ``StoreError/Code/notFound`` so the store can tell
/// "never written" from "unreadable".
///
/// Durability contract: after ``createFile(_:contents:)`` returns, the file's bytes are on
/// stable storage; after ``synchronizeDirectory(_:)`` returns, every rename, creation and
/// removal in that directory so far is on stable storage too.
public protocol StoreFileSystem: Sendable {
    /// The whole content of a regular file, refusing one larger than `maximumBytes` before
    /// reading it, so a tampered huge file costs no memory, and refusing anything else in its
    /// place — a FIFO, a device, a symbolic link — without blocking, so none can hold the launch.
    /// - Parameters:
    ///   - path: The file.
    ///   - maximumBytes: The most bytes accepted.
    /// - Returns: The bytes.
    /// - Throws: `StoreError` `.notFound`, `.oversize` (with the file's size), `.corrupt` for
    ///   what is not a regular file, or `.io`.
    func read(_ path: String, maximumBytes: Int) throws(StoreError) -> [UInt8]

    /// Creates `path` (replacing whatever has the name), writes all of `contents` and flushes them to stable
    /// storage through the same descriptor, then closes it. Used for temporary files only:
    /// a crash part-way leaves a torn file under a name nothing reads.
    /// - Parameters:
    ///   - path: The file, created with mode 0600.
    ///   - contents: The bytes.
    /// - Throws: `StoreError` `.io`.
    func createFile(_ path: String, contents: [UInt8]) throws(StoreError)

    /// Renames `source` to `destination` atomically, replacing a file already there.
    /// - Parameters:
    ///   - source: The existing file.
    ///   - destination: Its new name, in the same directory.
    /// - Throws: `StoreError` `.notFound` when `source` is missing, or `.io`.
    func rename(_ source: String, to destination: String) throws(StoreError)

    /// Flushes a directory's entries (renames, creations, removals) to stable storage.
    /// - Parameter path: The directory.
    /// - Throws: `StoreError` `.io`.
    func synchronizeDirectory(_ path: String) throws(StoreError)

    /// Removes a file.
    /// - Parameter path: The file.
    /// - Throws: `StoreError` `.notFound` when it is already gone, or `.io`.
    func remove(_ path: String) throws(StoreError)

    /// Creates a directory (mode 0700) unless one exists.
    /// - Parameter path: The directory; its parent must exist.
    /// - Returns: Whether it was created (`false`: something already had that name).
    /// - Throws: `StoreError` `.io`.
    func makeDirectory(_ path: String) throws(StoreError) -> Bool

    /// The names in a directory, without `.` and `..`, in no particular order, refusing a
    /// directory with more than `maximumEntries` of them.
    /// - Parameters:
    ///   - path: The directory.
    ///   - maximumEntries: The most names accepted.
    /// - Returns: The names.
    /// - Throws: `StoreError` `.notFound`, `.oversize`, or `.io`.
    func list(_ path: String, maximumEntries: Int) throws(StoreError) -> [String]
}
