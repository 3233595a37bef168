/// How much of a file ``POSIX/readRegularFile(_:followingLinks:limit:)`` reads.
enum FileReadLimit {
    /// All of it, when `fstat` says it is at most `maximumBytes`; a larger file is refused
    /// unread (``FileReadFailure/tooLarge(size:)``), and one that grows while being read is
    /// refused rather than cut (``FileReadFailure/grew``). The store's reads.
    case wholeFile(maximumBytes: Int)

    /// Its first `count` bytes, or all of it when it is shorter, whatever `fstat` says: a
    /// transport reads one byte past its cap to tell an oversize body, and reads no further.
    case prefix(count: Int)
}
