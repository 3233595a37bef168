import Junction
import JunctionShipping
import JunctionCore

/// The real file system with a fault at the k-th operation (counting from 0): the operation
/// throws an injected `errno` instead of running — a file being created is first written
/// halfway, as a torn write would leave it. In ``Mode/crash`` every later operation fails
/// too, as if the process had died there; in ``Mode/once`` only the k-th does.
final class FaultyFileSystem: StoreFileSystem {
    enum Mode: CaseIterable, Sendable {
        case once
        case crash
    }

    private let base = POSIXFileSystem()
    private let failAt: Int?
    private let mode: Mode
    private let errorNumber: Int32
    private let counter = Locked<[String]>([])

    /// A file system that fails operation `failAt` (never when `nil`) with `errorNumber`.
    init(failAt: Int?, mode: Mode = .once, errorNumber: Int32 = 5) {
        self.failAt = failAt
        self.mode = mode
        self.errorNumber = errorNumber
    }

    /// How many operations were asked for so far.
    var operations: Int { counter.withLock { $0.count } }

    /// The operations asked for so far, in order: `rename /d/state.json.tmp`.
    var journal: [String] { counter.withLock { $0 } }

    /// Records an operation and says whether it fails.
    private func fails(_ operation: String, _ path: String) -> Bool {
        let index = counter.withLock { journal in
            journal.append(operation + " " + path)
            return journal.count - 1
        }
        guard let failAt else { return false }
        return mode == .once ? index == failAt : index >= failAt
    }

    private func fault(_ operation: String, _ path: String) -> StoreError {
        StoreError(.io, path: path, "\(operation) \(path): injected fault (errno \(errorNumber))")
    }

    func read(_ path: String, maximumBytes: Int) throws(StoreError) -> [UInt8] {
        if fails("read", path) { throw fault("read", path) }
        return try base.read(path, maximumBytes: maximumBytes)
    }

    func createFile(_ path: String, contents: [UInt8]) throws(StoreError) {
        if fails("create", path) {
            try base.createFile(path, contents: Array(contents.prefix(contents.count / 2)))
            throw fault("create", path)
        }
        try base.createFile(path, contents: contents)
    }

    func rename(_ source: String, to destination: String) throws(StoreError) {
        if fails("rename", source) { throw fault("rename", source) }
        try base.rename(source, to: destination)
    }

    func synchronizeDirectory(_ path: String) throws(StoreError) {
        if fails("fsync", path) { throw fault("fsync", path) }
        try base.synchronizeDirectory(path)
    }

    func remove(_ path: String) throws(StoreError) {
        if fails("remove", path) { throw fault("remove", path) }
        try base.remove(path)
    }

    func makeDirectory(_ path: String) throws(StoreError) -> Bool {
        if fails("make directory", path) { throw fault("make directory", path) }
        return try base.makeDirectory(path)
    }

    func list(_ path: String, maximumEntries: Int) throws(StoreError) -> [String] {
        if fails("list", path) { throw fault("list", path) }
        return try base.list(path, maximumEntries: maximumEntries)
    }
}
