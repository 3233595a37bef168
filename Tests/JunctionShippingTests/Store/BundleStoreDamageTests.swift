import Foundation
import Junction
import JunctionShipping
import Testing

/// A store whose files were damaged, truncated, swapped or grown: it reports each problem
/// with the file and falls back to what it can still prove, never returning bad bytes.
@Suite struct BundleStoreDamageTests {
    /// A store with seq 1 and 2 committed and one failure remembered, then seq 3 committed:
    /// state.json names 3 and 2, state.previous.json names 2 and 1.
    private func threeCommits() throws -> String {
        let directory = try StoreFixture.directory()
        let store = BundleStore(directory: directory)
        try store.commit(StoreFixture.update(seq: 1))
        try store.commit(StoreFixture.update(seq: 2))
        try store.recordFailure(StoreFixture.failure(9))
        try store.commit(StoreFixture.update(seq: 3))
        return directory
    }

    private func objectPath(_ directory: String, seq: UInt64) -> String {
        "\(directory)/objects/\(StoreFixture.update(seq: seq).identity.artifactSHA256).jbundle"
    }

    @Test(arguments: [
        ("garbage", Array("not json at all".utf8)),
        ("torn", Array("{\"current\":{\"artifact\":\"".utf8)),
        ("empty", []),
        ("not canonical", Array(" {}".utf8)),
    ])
    func aDamagedStateFileFallsBackToThePreviousState(what: String, bytes: [UInt8]) throws {
        let directory = try threeCommits()
        try StoreFixture.overwrite(directory + "/state.json", with: bytes)
        let state = BundleStore(directory: directory).load()
        #expect(state.current == StoreFixture.update(seq: 2), "\(what)")
        #expect(state.lastKnownGood == StoreFixture.update(seq: 1), "\(what)")
        #expect(state.ratchet == StoreFixture.update(seq: 2).identity, "\(what)")
        #expect(state.failed == [StoreFixture.failure(9)], "\(what)")
        #expect(state.problems.map(\.code) == [.corrupt], "\(what)")
        #expect(state.problems.first?.path == directory + "/state.json", "\(what)")
        #expect(state.problems.first?.message.hasSuffix("; the store falls back to what it can prove") == true)
    }

    @Test func anEditedButWellFormedStateIsRefusedUnlessCanonical() throws {
        let directory = try threeCommits()
        let original = try StoreFixture.contents(directory + "/state.json")
        // The same JSON with its keys in another order: the store did not write it.
        let text = String(decoding: original, as: UTF8.self).replacingOccurrences(
            of: "\"failed\":[{\"artifact\"", with: "\"failed\":[{ \"artifact\"")
        try StoreFixture.overwrite(directory + "/state.json", with: Array(text.utf8))
        let state = BundleStore(directory: directory).load()
        #expect(
            state.problems.map(\.description) == [
                "corrupt: \(directory)/state.json: not in the canonical form the store writes; it was edited or torn; the store falls back to what it can prove"
            ])
        #expect(state.current == StoreFixture.update(seq: 2))
    }

    @Test func withBothStateFilesDamagedTheStoreLoadsEmptyAndSaysWhy() throws {
        let directory = try threeCommits()
        try StoreFixture.overwrite(directory + "/state.json", with: Array("x".utf8))
        try StoreFixture.overwrite(directory + "/state.previous.json", with: Array("y".utf8))
        let state = BundleStore(directory: directory).load()
        #expect(state.current == nil && state.lastKnownGood == nil && state.ratchet == nil && state.failed.isEmpty)
        #expect(state.problems.map(\.path) == [directory + "/state.json", directory + "/state.previous.json"])
        // The next commit starts afresh and does not keep the damaged file as its fallback.
        let store = BundleStore(directory: directory)
        try store.commit(StoreFixture.update(seq: 4))
        #expect(
            store.load()
                == StoredState(current: StoreFixture.update(seq: 4), ratchet: StoreFixture.update(seq: 4).identity))
    }

    @Test func aStateFileLargerThanTheLimitIsNotRead() throws {
        let directory = try threeCommits()
        try StoreFixture.overwrite(directory + "/state.json", with: [UInt8](repeating: 0x20, count: (64 << 10) + 1))
        let state = BundleStore(directory: directory).load()
        #expect(
            state.problems.map(\.description) == [
                "oversize: read \(directory)/state.json: 65537 bytes, more than the 65536 the store reads; the file is not one the store wrote"
            ])
        #expect(state.current == StoreFixture.update(seq: 2))
    }

    @Test func aHugeArtifactFileIsRefusedWithoutReadingIt() throws {
        let directory = try threeCommits()
        defer { StoreFixture.remove(directory) }
        // A sparse file: 1 GiB long, no memory or disk spent unless someone reads it.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: objectPath(directory, seq: 3)))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let state = BundleStore(directory: directory).load()
        #expect(
            state.problems.map(\.description) == [
                "oversize: read \(objectPath(directory, seq: 3)): 1073741824 bytes, more than the 16777216 the store reads; the file is not one the store wrote"
            ])
        #expect(state.current == nil)
        #expect(state.lastKnownGood == StoreFixture.update(seq: 2))
    }

    @Test func aMissingObjectDropsOnlyTheUpdateThatNamesIt() throws {
        let directory = try threeCommits()
        let path = objectPath(directory, seq: 3)
        try FileManager.default.removeItem(atPath: path)
        let state = BundleStore(directory: directory).load()
        let identity = StoreFixture.update(seq: 3).identity
        #expect(
            state.problems.map(\.description) == [
                "notFound: \(path): missing, though the state names it for the current update \(identity); that update is not used"
            ])
        #expect(state.current == nil)
        #expect(state.lastKnownGood == StoreFixture.update(seq: 2))
        #expect(state.ratchet == identity, "the ratchet does not move back with a lost file")
    }

    @Test(arguments: [("truncated", 100), ("one byte flipped", -1)])
    func aDamagedObjectIsReportedAndNotReturned(what: String, keep: Int) throws {
        let directory = try threeCommits()
        let path = objectPath(directory, seq: 2)
        var bytes = try StoreFixture.contents(path)
        if keep >= 0 { bytes = Array(bytes.prefix(keep)) } else { bytes[bytes.count / 2] ^= 0x40 }
        try StoreFixture.overwrite(path, with: bytes)
        let state = BundleStore(directory: directory).load()
        let identity = StoreFixture.update(seq: 2).identity
        #expect(
            state.problems.map(\.description) == [
                "corrupt: \(path): its SHA-256 is \(StoreFixture.sha256(bytes)), not the \(identity.artifactSHA256) its name says; the last-known-good update \(identity) is not used"
            ], "\(what)")
        #expect(state.current == StoreFixture.update(seq: 3))
        #expect(state.lastKnownGood == nil)
    }

    @Test func aPointerSwappedForAnotherIsReported() throws {
        let directory = try threeCommits()
        let three = StoreFixture.update(seq: 3)
        let path = "\(directory)/pointers/\(StoreFixture.sha256(three.pointer)).json"
        try StoreFixture.overwrite(path, with: StoreFixture.update(seq: 2).pointer)
        let state = BundleStore(directory: directory).load()
        #expect(state.problems.map(\.code) == [.corrupt])
        #expect(state.problems.first?.path == path)
        #expect(state.current == nil)
    }

    @Test func aCommitDoesNotPromoteADamagedCurrentToLastKnownGood() throws {
        let directory = try threeCommits()
        try StoreFixture.overwrite(objectPath(directory, seq: 3), with: Array("damaged".utf8))
        let store = BundleStore(directory: directory)
        try store.commit(StoreFixture.update(seq: 4))
        let state = store.load()
        #expect(state.problems.isEmpty)
        #expect(state.current == StoreFixture.update(seq: 4))
        #expect(state.lastKnownGood == StoreFixture.update(seq: 2))
    }

    @Test func aReadOnlyFileSystemFailsTheCommitWithTheFileAndTheSystemsReason() throws {
        let directory = try threeCommits()
        // Tests may run as root, whom a mode of 0500 does not stop: the seam gives EROFS instead.
        let faulty = FaultyFileSystem(failAt: 0, mode: .crash, errorNumber: 30)
        let store = BundleStore(directory: directory, fileSystem: faulty)
        #expect(
            throws: StoreError(
                .io, path: directory + "/state.json",
                "read \(directory)/state.json: injected fault (errno 30)")
        ) {
            try store.commit(StoreFixture.update(seq: 4))
        }
        let state = store.load()
        #expect(state.current == nil && state.lastKnownGood == nil)
        #expect(state.problems.count == 2, "both state files unreadable, each reported")
        #expect(BundleStore(directory: directory).load().current == StoreFixture.update(seq: 3))
    }

    @Test func aStoreDirectoryUnderAFileFailsWithTheSystemsReason() throws {
        let parent = try StoreFixture.directory()
        try StoreFixture.overwrite(parent, with: [])  // a file where the store's parent should be
        let directory = parent + "/store"
        let store = BundleStore(directory: directory)
        #expect(
            throws: StoreError(
                .io, path: directory + "/state.json", "open \(directory)/state.json: Not a directory (errno 20)")
        ) { try store.commit(StoreFixture.update(seq: 1)) }
        #expect(
            store.load().problems.map(\.description) == [
                "io: open \(directory)/state.json: Not a directory (errno 20)",
                "io: open \(directory)/state.previous.json: Not a directory (errno 20)",
            ])
    }

    @Test func aStateListingMoreFailuresThanTheLimitIsRefused() throws {
        let directory = try StoreFixture.directory()
        let writer = BundleStore(directory: directory, limits: BundleStoreLimits(maximumFailures: 3))
        for seq: UInt64 in 1...3 { try writer.recordFailure(StoreFixture.failure(seq)) }
        let state = BundleStore(directory: directory, limits: BundleStoreLimits(maximumFailures: 2)).load()
        #expect(
            state.problems.first?.description
                == "corrupt: \(directory)/state.json: failed: 3 identities, more than the 2 kept; the store falls back to what it can prove"
        )
        #expect(state.failed == [1, 2].map(StoreFixture.failure), "state.previous.json held two")
    }
}
