#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import JunctionShipping

/// The collector's folder: held by one collector at a time (a lock file), its `.open` files
/// recovered on start, and one ``HourlyLogFile`` per kind.
final class LogFolder: Sendable {
    /// The lock file's name; a second collector on the folder does not start.
    static let lockName = ".collector.lock"
    /// The most names the folder is listed for on start.
    static let maximumEntries = 100_000

    /// The folder's path.
    let path: String
    /// Each kind's file.
    let files: [DecisionLogKind: HourlyLogFile]
    private let lockDescriptor: Int32

    /// Opens `path` (made when missing), takes its lock, recovers its `.open` files and seals
    /// those of past hours.
    /// - Parameters:
    ///   - path: The folder.
    ///   - largestTear: The most a torn write can leave (``TornTail``).
    ///   - clock: Now, in seconds since 1970 UTC.
    ///   - report: Told of each file recovered.
    /// - Throws: `CollectorError` when the folder cannot be made, written or locked, or a
    ///   file in it cannot be recovered.
    init(
        path: String, largestTear: Int, clock: @escaping @Sendable () -> Double, report: (String) -> Void
    ) throws(CollectorError) {
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw CollectorError("make \(path): \(SystemCallError(code: errno)); give a folder that can be made")
        }
        let lockPath = "\(path)/\(Self.lockName)"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            throw CollectorError("open \(lockPath): \(SystemCallError(code: errno)); the folder must be writable")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw CollectorError("\(path) is in use by another collector; give each its own --dir")
        }
        lockDescriptor = descriptor
        self.path = path
        var files: [DecisionLogKind: HourlyLogFile] = [:]
        for kind in DecisionLogKind.allCases { files[kind] = HourlyLogFile(kind: kind, folder: path, clock: clock) }
        self.files = files
        let names: [String]
        do { names = try Self.list(path) } catch {
            close(descriptor)
            throw error
        }
        for name in names.sorted() {
            guard let file = LogFileName(openName: name) else { continue }
            do {
                let recovery = try TornTail.recover("\(path)/\(name)", largestTear: largestTear)
                if recovery.validBytes < recovery.size {
                    report(
                        "recovered \(name): cut \(recovery.size - recovery.validBytes) bytes of a write a crash tore "
                            + "(never answered 2xx), kept \(recovery.validBytes)")
                }
                if file == LogFileName(kind: file.kind, secondsSince1970: clock()) {
                    try files[file.kind]?.resume(file)
                } else {
                    try HourlyLogFile.seal(file, in: path)
                }
            } catch {
                close(descriptor)
                throw error
            }
        }
    }

    deinit { close(lockDescriptor) }

    /// Seals every file whose hour has passed.
    func sealPast() {
        for file in files.values { file.sealIfPast() }
    }

    /// Seals every file: the collector stops.
    func sealAll() {
        for file in files.values { file.sealNow() }
    }

    private static func list(_ path: String) throws(CollectorError) -> [String] {
        guard let directory = opendir(path) else {
            throw CollectorError("list \(path): \(SystemCallError(code: errno))")
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            guard names.count < maximumEntries else {
                throw CollectorError("\(path) has more than \(maximumEntries) entries; move old files out of it")
            }
            names.append(
                withUnsafePointer(to: entry.pointee.d_name) { tuple in
                    tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                        String(cString: $0)
                    }
                })
        }
        return names
    }
}
