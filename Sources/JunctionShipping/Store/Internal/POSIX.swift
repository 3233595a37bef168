#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system calls ``POSIXFileSystem`` makes, each retried on `EINTR` and each failure
/// turned into a ``StoreError`` with the call, the path and `errno`'s text. Kept apart from
/// the type so its method names (`read`, `rename`, `remove`) do not shadow the C functions.
enum POSIX {
    /// What a failed write-side call should tell its reader to check.
    private static let writeHint = "the store's directory must be writable and its file system have space"

    /// `open(2)`, retried on `EINTR`.
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0, operation: String) throws(StoreError) -> Int32 {
        while true {
            let fd = path.withCString { systemOpen($0, flags | O_CLOEXEC, mode) }
            if fd >= 0 { return fd }
            if errno == EINTR { continue }
            throw failure(operation, path)
        }
    }

    /// Reads the regular file at `path`, refusing it unread when it is larger than `maximumBytes`.
    ///
    /// Anything else in its place is damage (`.corrupt`), refused without blocking: a FIFO
    /// would hold a blocking `open(2)` until a writer came (the launch, forever), a device
    /// reads without end, a symbolic link leads out of the store's folder. So the name is
    /// looked at first (`lstat`), opened without following a link and without blocking,
    /// and what was opened is looked at again (`fstat`) before a byte is read.
    static func readFile(_ path: String, maximumBytes: Int) throws(StoreError) -> [UInt8] {
        var info = stat()
        while lstat(path, &info) != 0 {
            if errno == EINTR { continue }
            throw failure("open", path)
        }
        try requireRegular(info, path)
        let fd = try open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY, operation: "open")
        defer { _ = systemClose(fd) }
        guard fstat(fd, &info) == 0 else { throw failure("stat", path) }
        try requireRegular(info, path)
        let size = Int(info.st_size)
        guard size <= maximumBytes else { throw oversize(path, size: size, maximumBytes: maximumBytes) }
        // One byte more than fstat said, so a file that grows while being read is caught, not cut.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw failure("read", path)
            }
            if got == 0 { break }
            count += got
        }
        guard count <= size else {
            throw StoreError(.io, path: path, "read \(path): the file grew while being read; something else writes it")
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Replaces `path` with a new file, writes `contents`, flushes it through the same descriptor.
    static func writeFile(_ path: String, contents: [UInt8]) throws(StoreError) {
        // Whatever has the (temporary) name is removed, never opened: a FIFO there would
        // hold the open, a link would lead the write out of the folder.
        while unlink(path) != 0 && errno != ENOENT {
            if errno == EINTR { continue }
            throw failure("remove", path, hint: writeHint)
        }
        let fd = try open(
            path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, mode: 0o600, operation: "create")
        var closed = false
        defer { if !closed { _ = systemClose(fd) } }
        var written = 0
        while written < contents.count {
            let put = contents.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + written, $0.count - written) }
            if put < 0 {
                if errno == EINTR { continue }
                throw failure("write", path, hint: writeHint)
            }
            written += put
        }
        try flush(fd, path)
        closed = true
        // Linux closes the descriptor even when close(2) fails, so it is never retried.
        guard systemClose(fd) == 0 else { throw failure("close", path, hint: writeHint) }
    }

    /// Flushes a directory's entries.
    static func synchronizeDirectory(_ path: String) throws(StoreError) {
        let fd = try open(path, O_RDONLY | O_DIRECTORY, operation: "open directory")
        defer { _ = systemClose(fd) }
        try flush(fd, path)
    }

    /// `rename(2)`.
    static func rename(_ source: String, to destination: String) throws(StoreError) {
        while systemRename(source, destination) != 0 {
            if errno == EINTR { continue }
            throw failure("rename", source, target: " to \(destination)", hint: writeHint)
        }
    }

    /// `unlink(2)`.
    static func remove(_ path: String) throws(StoreError) {
        while unlink(path) != 0 {
            if errno == EINTR { continue }
            throw failure("remove", path, hint: writeHint)
        }
    }

    /// `mkdir(2)`; `false` when the name exists.
    static func makeDirectory(_ path: String) throws(StoreError) -> Bool {
        while mkdir(path, 0o700) != 0 {
            if errno == EINTR { continue }
            if errno == EEXIST { return false }
            throw failure("make directory", path, hint: writeHint)
        }
        return true
    }

    /// The names in a directory, at most `maximumEntries`.
    static func list(_ path: String, maximumEntries: Int) throws(StoreError) -> [String] {
        guard let directory = opendir(path) else { throw failure("list", path) }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno == 0 { return names }
                if errno == EINTR { continue }
                throw failure("list", path)
            }
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

    private static func flush(_ fd: Int32, _ path: String) throws(StoreError) {
        #if canImport(Darwin)
            // fsync on Darwin leaves data in the drive's cache; F_FULLFSYNC does not, where supported.
            if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        while fsync(fd) != 0 {
            if errno == EINTR { continue }
            throw failure("fsync", path, hint: writeHint)
        }
    }

    /// Refuses what is not a regular file, naming what it is.
    private static func requireRegular(_ info: stat, _ path: String) throws(StoreError) {
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFLNK: kind = "a symbolic link"
        case S_IFIFO: kind = "a FIFO"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFDIR: kind = "a directory"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a file"
        }
        throw StoreError(
            .corrupt, path: path,
            "open \(path): \(kind), where the store keeps a regular file it wrote; it is not read")
    }

    private static func oversize(_ path: String, size: Int, maximumBytes: Int) -> StoreError {
        StoreError(
            .oversize, path: path,
            "read \(path): \(size) bytes, more than the \(maximumBytes) the store reads; the file is not one the store wrote"
        )
    }

    /// The error for the call that just failed, from `errno`.
    private static func failure(_ operation: String, _ path: String, target: String = "", hint: String = "")
        -> StoreError
    {
        let number = errno
        let reason = String(cString: strerror(number))
        let advice = hint.isEmpty ? "" : "; \(hint)"
        if number == ELOOP {
            // What O_NOFOLLOW meets: a link put in a file's place since `lstat` looked.
            return StoreError(
                .corrupt, path: path,
                "\(operation) \(path): a symbolic link, where the store keeps a regular file it wrote; it is not read")
        }
        let code: StoreError.Code = number == ENOENT ? .notFound : .io
        return StoreError(code, path: path, "\(operation) \(path)\(target): \(reason) (errno \(number))\(advice)")
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
