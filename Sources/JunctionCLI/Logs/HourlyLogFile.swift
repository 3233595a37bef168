#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import JunctionCore
import JunctionShipping

/// The file a kind's batches are appended to, one per UTC hour, and its sealing.
///
/// Why an accepted batch is never lost, and no reader sees half of one:
/// - A batch is one or two whole gzip members, appended with one `write` at the end of the
///   hour's `.open` file and flushed (`fsync`) before the upload is answered 2xx; a new file's
///   name is flushed (the folder's `fsync`) before its first batch is answered. One lock
///   orders the appends of every connection, so members never interleave.
/// - A write that fails is cut back (`ftruncate`) to the file's size before it: the file is
///   whole members again, and the upload is answered 503. When even that fails the file is
///   left alone and every later upload of the kind answered 503 until a restart recovers it.
/// - A crash can only tear the member being written, at the end of the `.open` file, and
///   that batch was never answered. On start, ``TornTail`` cuts each `.open` file back to
///   its last whole member; appending then goes on after it.
/// - Readers read sealed files, `*.ndjson.gz`: the `.open` file renamed (atomically, and the
///   folder flushed) once its hour has passed or the collector stops, never written again.
final class HourlyLogFile: Sendable {
    /// The file being appended to.
    private struct OpenFile {
        let name: LogFileName
        let descriptor: Int32
        var size: Int
    }

    private struct State {
        var open: OpenFile?
        /// Why the kind takes no more batches, after a write could not be cut back.
        var broken: String?
    }

    private let kind: DecisionLogKind
    private let folder: String
    private let clock: @Sendable () -> Double
    private let state = Locked(State())

    /// The file of `kind` in `folder`, opened when the first batch comes.
    /// - Parameters:
    ///   - kind: What it holds.
    ///   - folder: Where.
    ///   - clock: Now, in seconds since 1970 UTC; read under the lock that orders appends,
    ///     so the hours of successive batches never go back.
    init(kind: DecisionLogKind, folder: String, clock: @escaping @Sendable () -> Double) {
        self.kind = kind
        self.folder = folder
        self.clock = clock
    }

    /// Goes on appending to `name`, a recovered `.open` file of the current hour.
    /// - Throws: `CollectorError` when it cannot be opened.
    func resume(_ name: LogFileName) throws(CollectorError) {
        try state.withLock { state throws(CollectorError) in
            state.open = try openFile(name, creating: false)
        }
    }

    /// Appends `bytes` (whole gzip members) to the file of the current hour, sealing the
    /// previous hour's first, and returns once they are on disk.
    /// - Throws: `CollectorError` when they could not be written; the file is as before.
    func append(_ bytes: [UInt8]) throws(CollectorError) {
        try state.withLock { state throws(CollectorError) in
            if let broken = state.broken { throw CollectorError(broken) }
            let name = LogFileName(kind: kind, secondsSince1970: clock())
            if let open = state.open, open.name != name { seal(&state) }
            if state.open == nil { state.open = try openFile(name, creating: true) }
            guard var file = state.open else { return }
            do {
                try writeAll(bytes, to: file.descriptor)
                _ = try SystemCall.retryingOnInterrupt { fsync(file.descriptor) }
            } catch {
                let path = "\(folder)/\(file.name.openName)"
                // Cut back to whole members, so later batches do not follow a torn one.
                guard ftruncate(file.descriptor, off_t(file.size)) == 0, fsync(file.descriptor) == 0 else {
                    state.broken =
                        "\(path): a write failed (\(error)) and could not be cut back (\(SystemCallError(code: errno))); "
                        + "restart the collector to recover the file"
                    throw CollectorError(state.broken ?? "")
                }
                throw CollectorError("write \(path): \(error); the folder's file system must have space")
            }
            file.size += bytes.count
            state.open = file
        }
    }

    /// Seals the file when its hour has passed, so readers have it without waiting for the
    /// next batch.
    func sealIfPast() {
        state.withLock { state in
            if let open = state.open, open.name != LogFileName(kind: kind, secondsSince1970: clock()) {
                seal(&state)
            }
        }
    }

    /// Seals the file being appended to, whatever its hour: the collector stops.
    func sealNow() {
        state.withLock { seal(&$0) }
    }

    /// Closes the open file and renames it to the first free sealed name of its hour; a
    /// failure is printed and leaves the `.open` file for the next start to seal.
    private func seal(_ state: inout State) {
        guard let open = state.open else { return }
        state.open = nil
        close(open.descriptor)
        do {
            try Self.seal(open.name, in: folder)
        } catch {
            printError("logs serve: \(error)")
        }
    }

    /// Renames `name`'s `.open` file in `folder` to its first free sealed name, and flushes
    /// the folder. One collector writes a folder (its lock), so the name is still free when
    /// renamed.
    /// - Throws: `CollectorError` when the rename fails.
    static func seal(_ name: LogFileName, in folder: String) throws(CollectorError) {
        var segment = 1
        var info = stat()
        while lstat("\(folder)/\(name.sealedName(segment: segment))", &info) == 0 { segment += 1 }
        let from = "\(folder)/\(name.openName)"
        let to = "\(folder)/\(name.sealedName(segment: segment))"
        guard rename(from, to) == 0 else {
            throw CollectorError("rename \(from) to \(to): \(SystemCallError(code: errno))")
        }
        try flushFolder(folder)
    }

    /// Flushes `folder`'s entries, so a name made or changed in it survives a crash.
    static func flushFolder(_ folder: String) throws(CollectorError) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CollectorError("open \(folder): \(SystemCallError(code: errno))") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw CollectorError("fsync \(folder): \(SystemCallError(code: errno))") }
    }

    private func openFile(_ name: LogFileName, creating: Bool) throws(CollectorError) -> OpenFile {
        let path = "\(folder)/\(name.openName)"
        let flags = O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | (creating ? O_CREAT : 0)
        let descriptor: Int32
        do {
            descriptor = try SystemCall.retryingOnInterrupt { open(path, flags, 0o644) }
        } catch { throw CollectorError("open \(path): \(error); the folder must be writable") }
        let size = lseek(descriptor, 0, SEEK_END)
        if creating && size == 0 {
            do { try Self.flushFolder(folder) } catch {
                close(descriptor)
                throw error
            }
        }
        return OpenFile(name: name, descriptor: descriptor, size: Int(size))
    }

    private func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(SystemCallError) {
        var written = 0
        while written < bytes.count {
            written += try SystemCall.retryingOnInterrupt {
                bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            }
        }
    }
}
