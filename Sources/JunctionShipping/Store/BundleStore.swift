import JunctionArtifact
public import Logging
import JunctionCore
public import Junction

/// The on-device store of accepted updates: the current one, the last-known-good, the
/// ratchet and the refused identities, kept under one directory so that any crash — at any
/// system call — leaves either the state before an operation or the state after it.
///
/// Layout, under ``directory``:
///
/// | file | what |
/// | --- | --- |
/// | `objects/<sha256>.jbundle` | an artifact's exact bytes, named by their SHA-256 |
/// | `pointers/<sha256>.json` | a channel pointer's exact bytes, named by their SHA-256 |
/// | `stamps/<sha256>` | the acceptance stamp of the update whose pointer has that SHA-256, once the device accepted it (see ``StoredUpdate/acceptance``) |
/// | `state.json` | the state: current, last-known-good (seq, artifact and pointer hashes), the kill switch in force (seq, artifact and pointer hashes), ratchet, refused identities |
/// | `state.previous.json` | the state before the last change, kept for when `state.json` is damaged |
///
/// Every change writes the files it adds first (temporary name, `fsync`, `rename`, `fsync` of
/// the directory), then the state: `state.json.tmp` written and synced, the old `state.json`
/// renamed to `state.previous.json`, the new one renamed into place, the directory synced.
/// Only then are files that neither state names removed. A crash before the last rename
/// leaves the old state (or, between the two renames, only `state.previous.json`: the old
/// state again); after it, the new one.
///
/// Reading checks every file against the name the state gives it: an artifact or pointer
/// whose bytes hash otherwise is reported in ``StoredState/problems`` and not returned.
/// A `state.json` that is missing, torn, edited, unreadable or no regular file (a FIFO, a
/// device, a symbolic link: refused without blocking) is not fatal: ``load()``
/// reports it and falls back to `state.previous.json` (one change older: its ratchet is at
/// most one update behind), and without that to an empty state — nothing current, no
/// last-known-good — so the app launches its embedded bundle.
///
/// Launch contract (what the installer does with ``load()``): with a `pin`, run the bundle
/// embedded in the app; else re-verify `current` in full but its dates (pointer and
/// artifact signatures, the bundle's tests — not those, under a valid acceptance stamp:
/// see `UpdateAcceptance.reverify(_:)`); when it is `nil` or refused, call
/// ``dropCurrent()`` and try `lastKnownGood` the same way; when that fails too, run the
/// bundle embedded in the app. The ratchet stays where it was in every case.
///
/// One instance serialises its own operations; two instances (or processes) on the same
/// directory must not write at once.
public final class BundleStore: Sendable {
    /// The directory that holds everything; its parent must exist.
    public let directory: String

    private let fileSystem: any StoreFileSystem
    private let limits: BundleStoreLimits
    private let logger: Logger
    private let lock = Locked(())

    /// Where each state came from: which file, so the next write knows what to keep.
    private enum Source {
        case primary
        case previous
        case none
    }

    /// A store under `directory`; nothing is read or written until the first call.
    /// - Parameters:
    ///   - directory: An absolute path; created (mode 0700) on the first write.
    ///   - fileSystem: Where the files live; ``POSIXFileSystem`` by default.
    ///   - limits: The largest files read and stored, and how many failures are kept.
    ///   - logger: Where problems found and changes made are logged (label `junction.store`).
    public init(
        directory: String, fileSystem: any StoreFileSystem = POSIXFileSystem(), limits: BundleStoreLimits = .default,
        logger: Logger = Logger(label: "junction.store")
    ) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.fileSystem = fileSystem
        self.limits = limits
        self.logger = logger
    }

    /// Everything the store can prove: the updates whose files hash right, the ratchet and
    /// the refused identities, and what was found wrong (also logged as warnings).
    /// - Returns: The state; empty for a directory that was never written.
    public func load() -> StoredState {
        lock.withLock { _ in
            var problems: [StoreError] = []
            // Not strict: every error becomes a problem, so nothing here throws.
            let (record, _) = (try? readRecord(strict: false, problems: &problems)) ?? (.empty, .none)
            var state = StoredState(ratchet: record.ratchet, failed: record.failed, channelTag: record.channelTag)
            state.current = record.current.flatMap {
                try? loadUpdate($0, role: "current", strict: false, problems: &problems)
            }
            state.lastKnownGood = record.lastKnownGood.flatMap {
                try? loadUpdate($0, role: "last-known-good", strict: false, problems: &problems)
            }
            state.pin = record.pin.flatMap { entry in
                (try? file(
                    pointerPath(entry.pointerSHA256), hash: entry.pointerSHA256,
                    maximumBytes: limits.maximumPointerBytes, role: "kill switch", identity: entry.identity,
                    strict: false, problems: &problems)).flatMap { $0 }.map {
                        StoredPin(identity: entry.identity, pointer: $0)
                    }
            }
            state.problems = problems
            return state
        }
    }

    /// Makes `update` current. The update that was current becomes the last-known-good
    /// (when its files still hash right; otherwise the last-known-good stays); the ratchet
    /// moves to `update`'s identity; a kill switch in force is lifted.
    /// - Parameter update: The verified pointer and artifact, byte for byte.
    /// - Throws: `StoreError` `.mismatch` when the artifact does not hash to the identity,
    ///   `.oversize` beyond ``BundleStoreLimits``, `.seqTooLarge` for a seq or epoch above
    ///   2⁵³ − 1, `.rollback` below the ratchet, or what a
    ///   file operation threw — in which case the store still loads the state from before.
    public func commit(_ update: StoredUpdate) throws(StoreError) {
        let identity = update.identity
        try checkStorable(identity, operation: "commit")
        guard update.artifact.count <= limits.maximumArtifactBytes else {
            throw StoreError(
                .oversize, path: objectsDirectory,
                "commit \(identity): the artifact has \(update.artifact.count) bytes, more than the \(limits.maximumArtifactBytes) the store keeps"
            )
        }
        try checkPointerSize(update.pointer, of: identity, operation: "commit")
        let artifactHash = SHA256Text.of(update.artifact)
        guard artifactHash == identity.artifactSHA256 else {
            throw StoreError(
                .mismatch, path: objectsDirectory,
                "commit \(identity): the artifact's SHA-256 is \(artifactHash), not the identity's \(identity.artifactSHA256); store the bytes that were verified"
            )
        }
        if let acceptance = update.acceptance, !StoreRecord.isHash(acceptance) {
            throw StoreError(
                .mismatch, path: stampsDirectory, "commit \(identity): an acceptance stamp is 64 lowercase hex digits")
        }
        let entry = StoreRecord.Entry(identity: identity, pointerSHA256: SHA256Text.of(update.pointer))
        try lock.withLock { _ throws(StoreError) in
            var problems: [StoreError] = []
            let (old, source) = try readRecord(strict: true, problems: &problems)
            try checkRatchet(old, against: identity, operation: "commit")
            var new = old
            if let current = old.current, current.identity != identity,
                try loadUpdate(current, role: "current", strict: true, problems: &problems) != nil
            {
                new.lastKnownGood = current
            }
            new.current = entry
            new.pin = nil
            new.ratchet = identity
            try prepareDirectories()
            try place(update.artifact, at: objectPath(identity.artifactSHA256))
            try place(update.pointer, at: pointerPath(entry.pointerSHA256))
            if let acceptance = update.acceptance {
                try place(Array(acceptance.utf8), at: stampPath(entry.pointerSHA256))
                try fileSystem.synchronizeDirectory(stampsDirectory)
            }
            try fileSystem.synchronizeDirectory(objectsDirectory)
            try fileSystem.synchronizeDirectory(pointersDirectory)
            try write(new, replacing: source)
            logger.info(
                "committed \(identity)",
                metadata: ["lastKnownGood": "\(new.lastKnownGood.map { "\($0.identity)" } ?? "none")"])
            collectGarbage(keeping: source == .none ? [new] : [new, old])
        }
    }

    /// Records the kill switch: the app launches its embedded bundle until a commit of a
    /// higher seq lifts it. The ratchet moves to the pin's identity; the current and
    /// last-known-good updates are kept (their files too), so the update a later pointer
    /// names may be one the store already holds.
    /// - Parameter pin: The verified `pin_embedded` pointer, byte for byte.
    /// - Throws: `StoreError` `.oversize` beyond ``BundleStoreLimits``, `.rollback` below the
    ///   ratchet, or what a file operation threw — in which case the store still loads the
    ///   state from before.
    public func pin(_ pin: StoredPin) throws(StoreError) {
        let identity = pin.identity
        try checkStorable(identity, operation: "pin")
        try checkPointerSize(pin.pointer, of: identity, operation: "pin")
        let entry = StoreRecord.Entry(identity: identity, pointerSHA256: SHA256Text.of(pin.pointer))
        try lock.withLock { _ throws(StoreError) in
            var problems: [StoreError] = []
            let (old, source) = try readRecord(strict: true, problems: &problems)
            try checkRatchet(old, against: identity, operation: "pin")
            var new = old
            new.pin = entry
            new.ratchet = identity
            try prepareDirectories()
            try place(pin.pointer, at: pointerPath(entry.pointerSHA256))
            try fileSystem.synchronizeDirectory(pointersDirectory)
            try write(new, replacing: source)
            logger.notice("pinned the embedded bundle by \(identity)")
            collectGarbage(keeping: source == .none ? [new] : [new, old])
        }
    }

    /// Remembers that `identity` was refused, so it is not tried again; the oldest of more
    /// than ``BundleStoreLimits/maximumFailures`` are forgotten. Already remembered: nothing changes.
    /// - Parameter identity: The refused update.
    /// - Throws: `StoreError` from a file operation (the store still loads the state from
    ///   before), or `.seqTooLarge` for a seq or epoch above 2⁵³ − 1.
    public func recordFailure(_ identity: UpdateIdentity) throws(StoreError) {
        try checkStorable(identity, operation: "record failure of")
        try lock.withLock { _ throws(StoreError) in
            var problems: [StoreError] = []
            let (old, source) = try readRecord(strict: true, problems: &problems)
            guard !old.failed.contains(identity) else { return }
            var new = old
            new.failed.append(identity)
            new.failed.removeFirst(max(0, new.failed.count - limits.maximumFailures))
            try prepareDirectories()
            try write(new, replacing: source)
            logger.info("remembered the failure of \(identity)")
            collectGarbage(keeping: source == .none ? [new] : [new, old])
        }
    }

    /// Records the acceptance stamp of `update`, the current or last-known-good update,
    /// which a launch verified in full: the next launch need not run its tests again. It is
    /// a file of its own (`stamps/<pointer's SHA-256>`), so the state file is not rewritten
    /// and an app of an earlier release, which knows no stamps, reads the store as before.
    /// An update the state does not name: nothing is written.
    /// - Parameters:
    ///   - stamp: The stamp, 64 lowercase hex digits.
    ///   - update: The update, as ``load()`` gave it.
    /// - Throws: `StoreError` `.mismatch` for a stamp that is not 64 lowercase hex digits, or
    ///   what a file operation threw — in which case the update is simply not stamped.
    public func recordAcceptance(_ stamp: String, of update: StoredUpdate) throws(StoreError) {
        guard StoreRecord.isHash(stamp) else {
            throw StoreError(
                .mismatch, path: stampsDirectory,
                "stamp \(update.identity): an acceptance stamp is 64 lowercase hex digits")
        }
        let pointerSHA256 = SHA256Text.of(update.pointer)
        try lock.withLock { _ throws(StoreError) in
            var problems: [StoreError] = []
            let (record, _) = try readRecord(strict: true, problems: &problems)
            let named = [record.current, record.lastKnownGood].contains {
                $0?.identity == update.identity && $0?.pointerSHA256 == pointerSHA256
            }
            guard named else { return }
            try prepareDirectories()
            try place(Array(stamp.utf8), at: stampPath(pointerSHA256))
            try fileSystem.synchronizeDirectory(stampsDirectory)
            logger.info("recorded the acceptance of \(update.identity)")
        }
    }

    /// Forgets the current update — a launch found it no longer valid — keeping the
    /// last-known-good, the ratchet and the refused identities. Nothing current: nothing changes.
    /// - Throws: `StoreError` from a file operation; the store still loads the state from before.
    public func dropCurrent() throws(StoreError) {
        try lock.withLock { _ throws(StoreError) in
            var problems: [StoreError] = []
            let (old, source) = try readRecord(strict: true, problems: &problems)
            guard let current = old.current else { return }
            var new = old
            new.current = nil
            try prepareDirectories()
            try write(new, replacing: source)
            logger.notice("dropped the current update \(current.identity)")
            collectGarbage(keeping: source == .none ? [new] : [new, old])
        }
    }

    /// Remembers the channel's ETag with the pointer it came with, so that after a restart
    /// the updater asks `If-None-Match` and a `304` costs no download. The same tag again:
    /// nothing is written.
    /// - Parameter tag: The validator and the SHA-256 of the pointer the device took.
    /// - Throws: `StoreError` `.mismatch` for a tag the store does not keep (see
    ///   ``StoredChannelTag/isStorable(_:)``), or what a file operation threw — in which case
    ///   the store still loads the state from before.
    public func rememberChannelTag(_ tag: StoredChannelTag) throws(StoreError) {
        guard StoredChannelTag.isStorable(tag.etag), StoreRecord.isHash(tag.pointerSHA256) else {
            throw StoreError(
                .mismatch, path: statePath,
                "remember \(tag): an ETag is 1 to \(TransportResponse.maximumETagBytes) bytes of visible ASCII, with the SHA-256 of its pointer"
            )
        }
        try lock.withLock { _ throws(StoreError) in
            var problems: [StoreError] = []
            let (old, source) = try readRecord(strict: true, problems: &problems)
            guard old.channelTag != tag else { return }
            var new = old
            new.channelTag = tag
            try prepareDirectories()
            try write(new, replacing: source)
            logger.debug("remembered the channel's \(tag)")
            collectGarbage(keeping: source == .none ? [new] : [new, old])
        }
    }

    /// The device's install id, which places it in channel rollouts: 32 lowercase hex
    /// digits, drawn from the system's random generator on first use and kept in
    /// `install-id` (written like every file here: temporary name, `fsync`, rename, `fsync`
    /// of the directory). A damaged file is replaced by a new id, with a warning — which
    /// draws the device a new place in every rollout.
    /// - Returns: The id.
    /// - Throws: `StoreError` when no id could be read or written.
    public func installID() throws(StoreError) -> String {
        try lock.withLock { _ throws(StoreError) in
            let path = directory + "/install-id"
            do throws(StoreError) {
                let bytes = try fileSystem.read(path, maximumBytes: 64)
                let text = String(decoding: bytes, as: UTF8.self)
                if text.utf8.count == 32, StoreRecord.isHash(text + String(repeating: "0", count: 32)) { return text }
                logger.warning(
                    "\(path) is damaged; a new install id is drawn, and with it a new place in every rollout")
            } catch  where error.code == .notFound {
                // The first use: draw one.
            } catch  where error.code == .corrupt {
                // A FIFO, a device or a link in its place: replaced like a damaged file.
                logger.warning("\(error); a new install id is drawn, and with it a new place in every rollout")
            }
            var generator = SystemRandomNumberGenerator()
            let digits = Array("0123456789abcdef".utf8)
            let id = String(decoding: (0..<32).map { _ in digits[Int(generator.next() % 16)] }, as: UTF8.self)
            try prepareDirectories()
            try place(Array(id.utf8), at: path)
            try fileSystem.synchronizeDirectory(directory)
            return id
        }
    }

    // MARK: - Paths

    private var statePath: String { directory + "/state.json" }
    private var previousStatePath: String { directory + "/state.previous.json" }
    private var objectsDirectory: String { directory + "/objects" }
    private var pointersDirectory: String { directory + "/pointers" }
    private func objectPath(_ hash: String) -> String { objectsDirectory + "/" + hash + ".jbundle" }
    private func pointerPath(_ hash: String) -> String { pointersDirectory + "/" + hash + ".json" }
    private var stampsDirectory: String { directory + "/stamps" }
    private func stampPath(_ pointerHash: String) -> String { stampsDirectory + "/" + pointerHash }

    /// The acceptance stamp kept for the update of this pointer, when there is a readable
    /// one: a missing or damaged stamp only means the next launch verifies in full.
    private func stamp(of pointerHash: String) -> String? {
        guard let bytes = try? fileSystem.read(stampPath(pointerHash), maximumBytes: 64) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        return StoreRecord.isHash(text) ? text : nil
    }

    // MARK: - Reading

    /// The newest state that reads back whole: `state.json`, else `state.previous.json`,
    /// else the empty state. What was wrong is appended to `problems` and logged. With
    /// `strict`, an I/O error is thrown instead: a write must not build on a state that a
    /// passing fault made it skip.
    private func readRecord(strict: Bool, problems: inout [StoreError]) throws(StoreError) -> (StoreRecord, Source) {
        for (path, source) in [(statePath, Source.primary), (previousStatePath, Source.previous)] {
            do throws(StoreError) {
                let bytes = try fileSystem.read(path, maximumBytes: limits.maximumStateBytes)
                do throws(CanonicalJSONError) {
                    return (try StoreRecord(decoding: bytes, file: path, limits: limits), source)
                } catch {
                    report(
                        StoreError(.corrupt, path: path, "\(error); the store falls back to what it can prove"),
                        into: &problems)
                }
            } catch {
                if error.code == .notFound { continue }
                if strict && error.code == .io { throw error }
                report(error, into: &problems)
            }
        }
        return (.empty, .none)
    }

    /// The update `entry` names, when both its files exist and hash to their names. With
    /// `strict`, an I/O error is thrown rather than taken for damage.
    private func loadUpdate(
        _ entry: StoreRecord.Entry, role: String, strict: Bool, problems: inout [StoreError]
    ) throws(StoreError) -> StoredUpdate? {
        let identity = entry.identity
        guard
            let artifact = try file(
                objectPath(identity.artifactSHA256), hash: identity.artifactSHA256,
                maximumBytes: limits.maximumArtifactBytes, role: role, identity: identity, strict: strict,
                problems: &problems),
            let pointer = try file(
                pointerPath(entry.pointerSHA256), hash: entry.pointerSHA256, maximumBytes: limits.maximumPointerBytes,
                role: role, identity: identity, strict: strict, problems: &problems)
        else { return nil }
        return StoredUpdate(
            identity: identity, pointer: pointer, checkedArtifact: artifact, acceptance: stamp(of: entry.pointerSHA256))
    }

    /// The bytes at `path` when they exist and hash to `hash`; else `nil`, the problem
    /// reported. With `strict`, an I/O error is thrown rather than taken for damage.
    private func file(
        _ path: String, hash: String, maximumBytes: Int, role: String, identity: UpdateIdentity, strict: Bool,
        problems: inout [StoreError]
    ) throws(StoreError) -> [UInt8]? {
        do throws(StoreError) {
            let bytes = try fileSystem.read(path, maximumBytes: maximumBytes)
            let actual = SHA256Text.of(bytes)
            guard actual == hash else {
                throw StoreError(
                    .corrupt, path: path,
                    "\(path): its SHA-256 is \(actual), not the \(hash) its name says; the \(role) update \(identity) is not used"
                )
            }
            return bytes
        } catch {
            if strict && error.code == .io { throw error }
            if error.code == .notFound {
                report(
                    StoreError(
                        .notFound, path: path,
                        "\(path): missing, though the state names it for the \(role) update \(identity); that update is not used"
                    ), into: &problems)
            } else {
                report(error, into: &problems)
            }
            return nil
        }
    }

    private func report(_ problem: StoreError, into problems: inout [StoreError]) {
        logger.warning("\(problem)")
        problems.append(problem)
    }

    // MARK: - Writing

    private func checkStorable(_ identity: UpdateIdentity, operation: String) throws(StoreError) {
        guard identity.seq <= ChannelPointer.maximumSeq, identity.epoch <= ChannelPointer.maximumSeq else {
            throw StoreError(
                .seqTooLarge, path: statePath,
                "\(operation) \(identity): the seq or epoch is above \(ChannelPointer.maximumSeq) (2^53 - 1), which no "
                    + "channel pointer carries; nothing was stored")
        }
        guard StoreRecord.isHash(identity.artifactSHA256) else {
            throw StoreError(
                .mismatch, path: statePath,
                "\(operation) \(identity): the artifact hash is not 64 lowercase hex digits")
        }
    }

    private func checkPointerSize(_ pointer: [UInt8], of identity: UpdateIdentity, operation: String)
        throws(StoreError)
    {
        guard pointer.count <= limits.maximumPointerBytes else {
            throw StoreError(
                .oversize, path: pointersDirectory,
                "\(operation) \(identity): the pointer has \(pointer.count) bytes, more than the \(limits.maximumPointerBytes) the store keeps"
            )
        }
    }

    /// An epoch below the ratchet's, a seq below it in the same epoch, or the ratchet's epoch
    /// and seq with another artifact, is a rollback.
    private func checkRatchet(_ record: StoreRecord, against identity: UpdateIdentity, operation: String)
        throws(StoreError)
    {
        if let ratchet = record.ratchet,
            ratchet.isLater(than: identity) || (!identity.isLater(than: ratchet) && identity != ratchet)
        {
            throw StoreError(
                .rollback, path: statePath,
                "\(operation) \(identity): the ratchet is at \(ratchet), the update accepted last; to roll back, publish the older artifact again under a higher seq"
            )
        }
    }

    /// Creates the directories that are missing, each made durable in its parent.
    private func prepareDirectories() throws(StoreError) {
        for path in [directory, objectsDirectory, pointersDirectory, stampsDirectory]
        where try fileSystem.makeDirectory(path) {
            let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            try fileSystem.synchronizeDirectory(parent.isEmpty ? "/" : parent)
        }
    }

    /// Writes `bytes` under a temporary name, synced, and renames it to `path`.
    private func place(_ bytes: [UInt8], at path: String) throws(StoreError) {
        let temporary = path + ".tmp"
        try fileSystem.createFile(temporary, contents: bytes)
        try fileSystem.rename(temporary, to: path)
    }

    /// Replaces the state file; the one read (when it was `state.json`) becomes `state.previous.json`.
    private func write(_ record: StoreRecord, replacing source: Source) throws(StoreError) {
        let temporary = statePath + ".tmp"
        try fileSystem.createFile(temporary, contents: record.encoded())
        // A damaged state.json is not kept as the fallback: the fallback it fell back to is.
        if source == .primary { try fileSystem.rename(statePath, to: previousStatePath) }
        try fileSystem.rename(temporary, to: statePath)
        try fileSystem.synchronizeDirectory(directory)
    }

    /// Removes what neither state file names: older updates and temporary files a crash left.
    /// The change is already durable, so a failure here is logged, not thrown.
    private func collectGarbage(keeping records: [StoreRecord]) {
        let objects = Set(records.flatMap(\.artifactNames).map { $0 + ".jbundle" })
        let pointers = Set(records.flatMap(\.pointerNames).map { $0 + ".json" })
        let stamps = Set(records.flatMap(\.pointerNames))
        for (folder, keep) in [(objectsDirectory, objects), (pointersDirectory, pointers), (stampsDirectory, stamps)] {
            do throws(StoreError) {
                for name in try fileSystem.list(folder, maximumEntries: limits.maximumDirectoryEntries)
                where !keep.contains(name) {
                    do throws(StoreError) {
                        try fileSystem.remove(folder + "/" + name)
                    } catch  where error.code == .notFound {
                        continue
                    }
                }
            } catch {
                logger.warning("\(error); left for the next change to remove")
            }
        }
    }
}
