/// Why ``POSIX/readRegularFile(_:followingLinks:limit:)`` returned nothing: the facts, for
/// the store and the file transport to word in their own errors.
enum FileReadFailure: Error {
    /// A system call failed: `open` (the `lstat` before it too), `stat` or `read`.
    case systemCall(operation: String, SystemCallError)

    /// Something other than a regular file has the name: what it is (`a FIFO`, `a directory`).
    case notRegular(kind: String)

    /// The file is larger than ``FileReadLimit/wholeFile(maximumBytes:)`` allows; not read.
    case tooLarge(size: Int)

    /// The file grew while it was read whole: something else writes it.
    case grew

    /// The system's text, what the file is, or its size: what a message says after the path.
    var reason: String {
        switch self {
        case .systemCall(_, let failure): failure.reason
        case .notRegular(let kind): kind
        case .tooLarge(let size): "\(size) bytes"
        case .grew: "the file grew while being read"
        }
    }
}
