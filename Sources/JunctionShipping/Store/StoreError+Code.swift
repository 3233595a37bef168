public import JunctionCore

extension StoreError {
    /// The kind of a ``StoreError``: an open set of values, so new kinds can be added without
    /// breaking code that switches over the known ones.
    public typealias Code = ErrorCode<StoreError>
}

/// The codes of ``StoreError``.
extension ErrorCode where Domain == StoreError {
    /// A system call failed; the message has its `errno` text and number.
    public static var io: Self { Self("io") }

    /// The file does not exist (`ENOENT`).
    public static var notFound: Self { Self("notFound") }

    /// The file, or a directory's listing, is larger than the store reads.
    public static var oversize: Self { Self("oversize") }

    /// The file's bytes are not what the state says: a hash that differs from the file's
    /// name, or a state file that is not the store's exact canonical JSON — or what has
    /// the file's name is no regular file (a FIFO, a device, a symbolic link).
    public static var corrupt: Self { Self("corrupt") }

    /// The update handed to ``BundleStore/commit(_:)`` contradicts itself: its artifact
    /// does not hash to its identity, or its sequence number cannot be stored.
    public static var mismatch: Self { Self("mismatch") }

    /// The commit would move the ratchet backwards: a lower epoch than the last accepted,
    /// a lower `seq` in the same epoch, or the same epoch and `seq` with another artifact.
    public static var rollback: Self { Self("rollback") }

    /// The update's `seq` or epoch is above 2⁵³ − 1 (`ChannelPointer.maximumSeq`), more
    /// than any pointer carries: stored, it would be a ratchet nothing could pass.
    public static var seqTooLarge: Self { Self("seqTooLarge") }
}
