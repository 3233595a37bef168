/// Batches of the decision log that could not be sent, kept in a folder until they are, so
/// a restart does not lose them: each file holds one batch's body exactly as it is posted,
/// written through the store's file seam (``StoreFileSystem``) as the store writes — to a
/// temporary name, flushed, renamed, the folder flushed.
///
/// Bounded in files and bytes: saving a batch past either bound removes the oldest first,
/// and the lines they held are reported to the caller to count as dropped. A name says the
/// kind, the order, how many lines the batch accounts for and its size
/// (`decisions-00000042-120-5321.ndjson.gz`), so the folder is listed without reading it and
/// a batch removed unread is still counted.
public struct PendingLogBatches: Sendable {
    /// How much the folder holds.
    public struct Limits: Sendable, Hashable {
        /// The most batches kept; at least 1.
        public var maximumFiles: Int {
            didSet { maximumFiles = max(1, maximumFiles) }
        }
        /// The most bytes of batches kept; at least 1.
        public var maximumBytes: Int {
            didSet { maximumBytes = max(1, maximumBytes) }
        }

        /// Limits.
        /// - Parameters:
        ///   - maximumFiles: The most batches (default 32).
        ///   - maximumBytes: The most bytes (default 4 MiB).
        public init(maximumFiles: Int = 32, maximumBytes: Int = 4 << 20) {
            self.maximumFiles = max(1, maximumFiles)
            self.maximumBytes = max(1, maximumBytes)
        }
    }

    /// A batch in the folder.
    public struct Batch: Sendable, Hashable {
        /// Its kind.
        public var kind: DecisionLogKind
        /// Its place in the order batches were saved.
        public var sequence: Int
        /// The lines it accounts for: its lines and the drops it reports.
        public var lines: Int
        /// Its size in bytes.
        public var bytes: Int
        /// Its file name.
        var name: String { "\(kind.rawValue)-\(Self.padded(sequence))-\(lines)-\(bytes).ndjson.gz" }

        private static func padded(_ number: Int) -> String {
            let digits = String(number)
            return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
        }

        /// The batch a file name describes, or `nil` for a name this folder does not write.
        init?(name: String) {
            guard name.hasSuffix(".ndjson.gz") else { return nil }
            let fields = name.dropLast(".ndjson.gz".count).split(separator: "-", omittingEmptySubsequences: false)
            // Every number bounded: a damaged or hostile name must not overflow a sum.
            guard fields.count == 4, let kind = DecisionLogKind(rawValue: String(fields[0])),
                let sequence = Int(fields[1]), (0..<100_000_000).contains(sequence), let lines = Int(fields[2]),
                (0...1_000_000_000).contains(lines), let bytes = Int(fields[3]), (0...(1 << 40)).contains(bytes)
            else { return nil }
            self.init(kind: kind, sequence: sequence, lines: lines, bytes: bytes)
        }

        init(kind: DecisionLogKind, sequence: Int, lines: Int, bytes: Int) {
            self.kind = kind
            self.sequence = sequence
            self.lines = lines
            self.bytes = bytes
        }
    }

    /// The folder.
    public let directory: String
    /// Its bounds.
    public let limits: Limits
    private let fileSystem: any StoreFileSystem

    /// Pending batches in `directory`, created if missing (its parent must exist).
    /// - Parameters:
    ///   - directory: An absolute path the app gives the log alone.
    ///   - limits: How much it holds.
    ///   - fileSystem: The file operations (tests fail or slow them).
    public init(directory: String, limits: Limits = Limits(), fileSystem: any StoreFileSystem = POSIXFileSystem()) {
        self.directory = directory
        self.limits = limits
        self.fileSystem = fileSystem
    }

    /// The batches in the folder, oldest first, within the bounds: files the folder did not
    /// write, and temporary files a crash left, are removed, and so are the oldest batches
    /// past the bounds (a folder written under larger limits).
    /// - Returns: The batches kept, and those removed for the bounds, to count as dropped.
    /// - Throws: `StoreError` when the folder cannot be made or listed.
    public func list() throws(StoreError) -> (kept: [Batch], removed: [Batch]) {
        _ = try fileSystem.makeDirectory(directory)
        let names = try fileSystem.list(directory, maximumEntries: limits.maximumFiles * 4 + 16)
        var batches: [Batch] = []
        for name in names {
            if let batch = Batch(name: name) {
                batches.append(batch)
            } else {
                try? fileSystem.remove(path(name))
            }
        }
        return trimmed(batches.sorted { $0.sequence < $1.sequence })
    }

    /// A batch's body, at most ``Limits/maximumBytes``.
    /// - Throws: `StoreError` when it cannot be read (a damaged folder).
    public func read(_ batch: Batch) throws(StoreError) -> [UInt8] {
        try fileSystem.read(path(batch.name), maximumBytes: limits.maximumBytes)
    }

    /// Saves a batch, durably, then removes the oldest batches past the bounds.
    /// - Parameters:
    ///   - body: The batch's body as it is posted.
    ///   - kind: Its kind.
    ///   - lines: The lines it accounts for.
    ///   - sequence: Its place in the order, above every batch in the folder.
    ///   - existing: The batches in the folder before it, oldest first.
    /// - Returns: The batches now in the folder, and those removed to make room (the new
    ///   one among them when it alone passes the bounds).
    /// - Throws: `StoreError` when it cannot be written; nothing is removed then.
    public func save(
        _ body: [UInt8], kind: DecisionLogKind, lines: Int, sequence: Int, existing: [Batch]
    ) throws(StoreError) -> (kept: [Batch], removed: [Batch]) {
        let batch = Batch(kind: kind, sequence: sequence, lines: lines, bytes: body.count)
        let temporary = directory + "/.tmp-" + batch.name
        try fileSystem.createFile(temporary, contents: body)
        try fileSystem.rename(temporary, to: path(batch.name))
        try fileSystem.synchronizeDirectory(directory)
        return trimmed(existing + [batch])
    }

    /// The batches that saving one of `bytes` after `existing` would remove, oldest first.
    public func removals(adding bytes: Int, after existing: [Batch]) -> [Batch] {
        var count = existing.count + 1
        var total = existing.reduce(bytes) { $0 + $1.bytes }
        var removed: [Batch] = []
        for oldest in existing where count > limits.maximumFiles || total > limits.maximumBytes {
            count -= 1
            total -= oldest.bytes
            removed.append(oldest)
        }
        return removed
    }

    /// Whether a batch of `bytes` fits after `existing` without removing any.
    public func fits(bytes: Int, after existing: [Batch]) -> Bool {
        removals(adding: bytes, after: existing).isEmpty
    }

    /// Removes the oldest of `batches` until the rest are within the bounds.
    private func trimmed(_ batches: [Batch]) -> (kept: [Batch], removed: [Batch]) {
        var kept = batches[...]
        var bytes = kept.reduce(0) { $0 + $1.bytes }
        var removed: [Batch] = []
        while let oldest = kept.first, kept.count > limits.maximumFiles || bytes > limits.maximumBytes {
            kept.removeFirst()
            bytes -= oldest.bytes
            try? fileSystem.remove(path(oldest.name))
            removed.append(oldest)
        }
        if !removed.isEmpty { try? fileSystem.synchronizeDirectory(directory) }
        return (Array(kept), removed)
    }

    /// Removes a batch that was sent (or refused for good).
    public func remove(_ batch: Batch) {
        try? fileSystem.remove(path(batch.name))
    }

    private func path(_ name: String) -> String { directory + "/" + name }
}
