#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system calls ``POSIXFileSystem`` makes, each through ``SystemCall`` (retried on
/// `EINTR`) and each failure turned into a ``StoreError`` with the call, the path and
/// `errno`'s text; and the reader of regular files that ``FileTransport`` shares. Kept apart
/// from the type so its method names (`read`, `rename`, `remove`) do not shadow the C functions.
enum POSIX {
    /// What a failed write-side call should tell its reader to check.
    private static let writeHint = "the store's directory must be writable and its file system have space"

    /// `open(2)`, close-on-exec.
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0, operation: String) throws(StoreError) -> Int32 {
        do { return try openDescriptor(path, flags, mode: mode) } catch { throw failure(operation, path, error) }
    }

    /// Reads the regular file at `path`, refusing it unread when it is larger than `maximumBytes`.
    ///
    /// Anything else in its place is damage (`.corrupt`), refused without blocking: a FIFO
    /// would hold a blocking `open(2)` until a writer came (the launch, forever), a device
    /// reads without end, a symbolic link leads out of the store's folder.
    static func readFile(_ path: String, maximumBytes: Int) throws(StoreError) -> [UInt8] {
        do {
            return try readRegularFile(path, followingLinks: false, limit: .wholeFile(maximumBytes: maximumBytes))
        } catch {
            switch error {
            case .systemCall(let operation, let failure): throw Self.failure(operation, path, failure)
            case .notRegular(let kind):
                throw StoreError(
                    .corrupt, path: path,
                    "open \(path): \(kind), where the store keeps a regular file it wrote; it is not read")
            case .tooLarge(let size):
                throw StoreError(
                    .oversize, path: path,
                    "read \(path): \(size) bytes, more than the \(maximumBytes) the store reads; the file is not one the store wrote"
                )
            case .grew:
                throw StoreError(
                    .io, path: path, "read \(path): the file grew while being read; something else writes it")
            }
        }
    }

    /// Reads the regular file at `path`, as much of it as `limit` says, and nothing else.
    ///
    /// Nothing but a regular file is read, and nothing blocks: the file is opened with
    /// `O_NONBLOCK` (a FIFO cannot hold the open), and what was opened is looked at
    /// (`fstat`) before a byte is read. Without `followingLinks` the name is looked at first
    /// (`lstat`) and opened with `O_NOFOLLOW`, so a symbolic link is refused too.
    /// - Parameters:
    ///   - path: The file.
    ///   - followingLinks: Whether a symbolic link is followed to the file it names.
    ///   - limit: How much is read.
    /// - Returns: The bytes read.
    /// - Throws: ``FileReadFailure``; the caller words it.
    static func readRegularFile(_ path: String, followingLinks: Bool, limit: FileReadLimit) throws(FileReadFailure)
        -> [UInt8]
    {
        var info = stat()
        if !followingLinks {
            do { _ = try SystemCall.retryingOnInterrupt { lstat(path, &info) } } catch {
                throw .systemCall(operation: "open", error)
            }
            if let kind = kind(ofIrregular: info) { throw .notRegular(kind: kind) }
        }
        let fd: Int32
        do {
            fd = try openDescriptor(
                path, O_RDONLY | O_NONBLOCK | O_NOCTTY | (followingLinks ? 0 : O_NOFOLLOW), mode: 0)
        } catch { throw .systemCall(operation: "open", error) }
        defer { _ = systemClose(fd) }
        guard fstat(fd, &info) == 0 else { throw .systemCall(operation: "stat", SystemCallError(code: errno)) }
        if let kind = kind(ofIrregular: info) { throw .notRegular(kind: kind) }
        let size = Int(info.st_size)
        let wanted: Int
        switch limit {
        case .wholeFile(let maximumBytes):
            guard size <= maximumBytes else { throw .tooLarge(size: size) }
            // One byte more than fstat said, so a file that grows while being read is caught, not cut.
            wanted = size + 1
        case .prefix(let count):
            wanted = count
        }
        // What fstat says, and at least 64 KiB, but never more than wanted: the size is a hint, the limit a bound.
        var bytes = [UInt8](repeating: 0, count: min(wanted, max(size + 1, 1 << 16)))
        var count = 0
        while count < wanted {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: min(wanted - count, count))) }
            let got: Int
            do {
                got = try SystemCall.retryingOnInterrupt {
                    bytes.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress! + count, $0.count - count) }
                }
            } catch { throw .systemCall(operation: "read", error) }
            if got == 0 { break }
            count += got
        }
        if case .wholeFile = limit, count > size { throw .grew }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Replaces `path` with a new file, writes `contents`, flushes it through the same descriptor.
    static func writeFile(_ path: String, contents: [UInt8]) throws(StoreError) {
        // Whatever has the (temporary) name is removed, never opened: a FIFO there would
        // hold the open, a link would lead the write out of the folder.
        do { _ = try SystemCall.retryingOnInterrupt { unlink(path) } } catch  where error.code == ENOENT {
        } catch { throw failure("remove", path, error, hint: writeHint) }
        let fd = try open(
            path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, mode: 0o600, operation: "create")
        var closed = false
        defer { if !closed { _ = systemClose(fd) } }
        var written = 0
        while written < contents.count {
            do {
                written += try SystemCall.retryingOnInterrupt {
                    contents.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + written, $0.count - written) }
                }
            } catch { throw failure("write", path, error, hint: writeHint) }
        }
        try flush(fd, path)
        closed = true
        // Linux closes the descriptor even when close(2) fails, so it is never retried.
        guard systemClose(fd) == 0 else { throw failure("close", path, SystemCallError(code: errno), hint: writeHint) }
    }

    /// Flushes a directory's entries.
    static func synchronizeDirectory(_ path: String) throws(StoreError) {
        let fd = try open(path, O_RDONLY | O_DIRECTORY, operation: "open directory")
        defer { _ = systemClose(fd) }
        try flush(fd, path)
    }

    /// `rename(2)`.
    static func rename(_ source: String, to destination: String) throws(StoreError) {
        do { _ = try SystemCall.retryingOnInterrupt { systemRename(source, destination) } } catch {
            throw failure("rename", source, error, target: " to \(destination)", hint: writeHint)
        }
    }

    /// `unlink(2)`.
    static func remove(_ path: String) throws(StoreError) {
        do { _ = try SystemCall.retryingOnInterrupt { unlink(path) } } catch {
            throw failure("remove", path, error, hint: writeHint)
        }
    }

    /// `mkdir(2)`; `false` when the name exists.
    static func makeDirectory(_ path: String) throws(StoreError) -> Bool {
        do { _ = try SystemCall.retryingOnInterrupt { mkdir(path, 0o700) } } catch  where error.code == EEXIST {
            return false
        } catch { throw failure("make directory", path, error, hint: writeHint) }
        return true
    }

    /// The names in a directory, at most `maximumEntries`.
    static func list(_ path: String, maximumEntries: Int) throws(StoreError) -> [String] {
        guard let directory = opendir(path) else { throw failure("list", path, SystemCallError(code: errno)) }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            var entry: UnsafeMutablePointer<dirent>?
            do {
                // readdir tells the end from a failure by errno alone: cleared before, set after.
                _ = try SystemCall.retryingOnInterrupt { () -> Int32 in
                    errno = 0
                    entry = readdir(directory)
                    return entry == nil && errno != 0 ? -1 : 0
                }
            } catch { throw failure("list", path, error) }
            guard let entry else { return names }
            let name = withUnsafePointer(to: entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(cString: $0)
                }
            }
            if name == "." || name == ".." { continue }
            guard names.count < maximumEntries else {
                throw StoreError(
                    .oversize, path: path,
                    "list \(path): more than \(maximumEntries) entries; remove what the store did not put there")
            }
            names.append(name)
        }
    }

    /// `open(2)`, close-on-exec, its failure as the system gave it.
    private static func openDescriptor(_ path: String, _ flags: Int32, mode: mode_t) throws(SystemCallError) -> Int32 {
        try SystemCall.retryingOnInterrupt { path.withCString { systemOpen($0, flags | O_CLOEXEC, mode) } }
    }

    private static func flush(_ fd: Int32, _ path: String) throws(StoreError) {
        #if canImport(Darwin)
            // fsync on Darwin leaves data in the drive's cache; F_FULLFSYNC does not, where supported.
            if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        do { _ = try SystemCall.retryingOnInterrupt { fsync(fd) } } catch {
            throw failure("fsync", path, error, hint: writeHint)
        }
    }

    /// What `info` describes when it is not a regular file (`a FIFO`); `nil` for a regular file.
    private static func kind(ofIrregular info: stat) -> String? {
        switch info.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        default: "not a file"
        }
    }

    /// The error for a call that failed with `failure`.
    private static func failure(
        _ operation: String, _ path: String, _ failure: SystemCallError, target: String = "", hint: String = ""
    ) -> StoreError {
        let advice = hint.isEmpty ? "" : "; \(hint)"
        if failure.code == ELOOP {
            // What O_NOFOLLOW meets: a link put in a file's place since `lstat` looked.
            return StoreError(
                .corrupt, path: path,
                "\(operation) \(path): a symbolic link, where the store keeps a regular file it wrote; it is not read")
        }
        let code: StoreError.Code = failure.code == ENOENT ? .notFound : .io
        return StoreError(code, path: path, "\(operation) \(path)\(target): \(failure)\(advice)")
    }
}

// The C functions under names that no method of a store type shadows.
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
private func systemRename(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }
