import Foundation
import Junction
import JunctionShipping
import JunctionArtifact
import JunctionTestSupport
import Testing

/// What the store keeps and returns: exact bytes, the last-known-good, the ratchet, the
/// refused identities, and what it refuses to store.
@Suite struct BundleStoreTests {
    @Test func aDirectoryNeverWrittenLoadsEmptyWithoutProblems() throws {
        let directory = try StoreFixture.directory()
        #expect(BundleStore(directory: directory).load() == StoredState())
        #expect(!FileManager.default.fileExists(atPath: directory), "loading writes nothing")
    }

    @Test func aCommittedUpdateLoadsByteForByte() throws {
        let directory = try StoreFixture.directory()
        let update = StoreFixture.update(seq: 4)
        try BundleStore(directory: directory).commit(update)
        let state = BundleStore(directory: directory).load()
        #expect(state == StoredState(current: update, ratchet: update.identity))
        #expect(
            try StoreFixture.contents("\(directory)/objects/\(update.identity.artifactSHA256).jbundle")
                == update.artifact)
        let pointerName = StoreFixture.sha256(update.pointer)
        #expect(try StoreFixture.contents("\(directory)/pointers/\(pointerName).json") == update.pointer)
    }

    @Test func theUpdateCurrentBeforeACommitBecomesTheLastKnownGood() throws {
        let directory = try StoreFixture.directory()
        let store = BundleStore(directory: directory)
        for seq: UInt64 in 1...3 { try store.commit(StoreFixture.update(seq: seq)) }
        let state = store.load()
        #expect(state.current == StoreFixture.update(seq: 3))
        #expect(state.lastKnownGood == StoreFixture.update(seq: 2))
        #expect(state.ratchet == StoreFixture.update(seq: 3).identity)
    }

    @Test func committingTheCurrentUpdateAgainKeepsTheLastKnownGood() throws {
        let directory = try StoreFixture.directory()
        let store = BundleStore(directory: directory)
        try store.commit(StoreFixture.update(seq: 1))
        try store.commit(StoreFixture.update(seq: 2))
        try store.commit(StoreFixture.update(seq: 2))
        #expect(store.load().lastKnownGood == StoreFixture.update(seq: 1))
    }

    @Test func droppingTheCurrentKeepsTheLastKnownGoodAndTheRatchet() throws {
        let directory = try StoreFixture.directory()
        let store = BundleStore(directory: directory)
        try store.commit(StoreFixture.update(seq: 1))
        try store.commit(StoreFixture.update(seq: 2))
        try store.dropCurrent()
        let state = BundleStore(directory: directory).load()
        #expect(
            state
                == StoredState(
                    lastKnownGood: StoreFixture.update(seq: 1), ratchet: StoreFixture.update(seq: 2).identity))
        // The ratchet still refuses what was dropped's predecessors, and a newer update
        // becomes current without demoting anything: nothing was current.
        try store.commit(StoreFixture.update(seq: 3))
        #expect(store.load().lastKnownGood == StoreFixture.update(seq: 1))
    }

    @Test(arguments: [
        (UInt64(4), "a lower seq"), (UInt64(5), "the same seq with another artifact"),
    ])
    func aCommitBelowTheRatchetIsRefused(seq: UInt64, what: String) throws {
        let directory = try StoreFixture.directory()
        let store = BundleStore(directory: directory)
        let accepted = StoreFixture.update(seq: 5)
        try store.commit(accepted)
        try store.dropCurrent()
        let older = StoreFixture.update(seq: seq, size: 100)
        #expect(
            throws: StoreError(
                .rollback, path: directory + "/state.json",
                "commit \(older.identity): the ratchet is at \(accepted.identity), the update accepted last; to roll back, publish the older artifact again under a higher seq"
            ), "\(what)"
        ) { try store.commit(older) }
        #expect(store.load().ratchet == accepted.identity)
    }

    @Test func anArtifactThatDoesNotHashToItsIdentityIsRefused() throws {
        let directory = try StoreFixture.directory()
        let update = StoreFixture.update(seq: 1)
        var tampered = update.artifact
        tampered[0] ^= 1
        let actual = StoreFixture.sha256(tampered)
        #expect(
            throws: StoreError(
                .mismatch, path: directory + "/objects",
                "commit \(update.identity): the artifact's SHA-256 is \(actual), not the identity's \(update.identity.artifactSHA256); store the bytes that were verified"
            )
        ) {
            try BundleStore(directory: directory).commit(
                StoredUpdate(identity: update.identity, pointer: update.pointer, artifact: tampered))
        }
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test func identitiesTheStateCannotHoldAreRefused() throws {
        let directory = try StoreFixture.directory()
        let store = BundleStore(directory: directory)
        let huge = UpdateIdentity(seq: UInt64(Int64.max) + 1, artifactSHA256: String(repeating: "a", count: 64))
        #expect(
            throws: StoreError(
                .seqTooLarge, path: directory + "/state.json",
                "record failure of \(huge): the seq or epoch is above 9007199254740991 (2^53 - 1), which no channel pointer carries; nothing was stored"
            )
        ) { try store.recordFailure(huge) }
        let badHash = UpdateIdentity(seq: 1, artifactSHA256: "../../etc/passwd")
        #expect(
            throws: StoreError(
                .mismatch, path: directory + "/state.json",
                "record failure of \(badHash): the artifact hash is not 64 lowercase hex digits")
        ) { try store.recordFailure(badHash) }
    }

    @Test func updatesLargerThanTheLimitsAreRefusedBeforeWriting() throws {
        let directory = try StoreFixture.directory()
        let update = StoreFixture.update(seq: 1, size: 2_000)
        let store = BundleStore(
            directory: directory, limits: BundleStoreLimits(maximumArtifactBytes: 1_000, maximumPointerBytes: 50))
        #expect(
            throws: StoreError(
                .oversize, path: directory + "/objects",
                "commit \(update.identity): the artifact has 2011 bytes, more than the 1000 the store keeps")
        ) { try store.commit(update) }
        let small = StoreFixture.update(seq: 1, size: 10)
        #expect(
            throws: StoreError(
                .oversize, path: directory + "/pointers",
                "commit \(small.identity): the pointer has 87 bytes, more than the 50 the store keeps")
        ) { try store.commit(small) }
    }

    @Test func failuresAreRememberedOnceAndOnlyTheNewestAreKept() throws {
        let directory = try StoreFixture.directory()
        let store = BundleStore(directory: directory, limits: BundleStoreLimits(maximumFailures: 3))
        try store.commit(StoreFixture.update(seq: 1))
        for seq: UInt64 in [2, 3, 3, 4, 5] { try store.recordFailure(StoreFixture.failure(seq)) }
        let state = BundleStore(directory: directory, limits: BundleStoreLimits(maximumFailures: 3)).load()
        #expect(state.failed == [3, 4, 5].map(StoreFixture.failure))
        #expect(state.current == StoreFixture.update(seq: 1), "a failure leaves the current update alone")
    }

    @Test func filesNoStateNamesAreRemovedAfterAChange() throws {
        let directory = try StoreFixture.directory()
        let store = BundleStore(directory: directory)
        for seq: UInt64 in 1...4 { try store.commit(StoreFixture.update(seq: seq)) }
        try StoreFixture.overwrite("\(directory)/objects/stray.jbundle.tmp", with: [1, 2, 3])
        try store.recordFailure(StoreFixture.failure(7))
        // state.json names 4 and 3; state.previous.json (before the failure) names 4 and 3 too.
        let objects = try FileManager.default.contentsOfDirectory(atPath: directory + "/objects").sorted()
        let expected = [4, 3].map { StoreFixture.update(seq: $0).identity.artifactSHA256 + ".jbundle" }.sorted()
        #expect(objects == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/pointers").count == 2)
    }

    @Test func aCommitLogsWhatBecameCurrent() throws {
        let log = CapturedLog()
        let store = BundleStore(directory: try StoreFixture.directory(), logger: log.logger)
        try store.commit(StoreFixture.update(seq: 1))
        #expect(log.messages == ["committed \(StoreFixture.update(seq: 1).identity)"])
    }

    @Test func theDefaultLimitsKeepWhatTheArtifactAndPointerReadersAccept() {
        #expect(BundleStoreLimits.default.maximumArtifactBytes == ArtifactLimits.default.totalSize)
        #expect(BundleStoreLimits.default.maximumPointerBytes == ChannelPointer.maximumBytes)
    }

    @Test func changesFromManyTasksAreSerialisedAndNoneIsLost() async throws {
        let directory = try StoreFixture.directory()
        defer { StoreFixture.remove(directory) }
        let store = BundleStore(directory: directory)
        try store.commit(StoreFixture.update(seq: 1))
        // Each change reads the state and writes a new one: unserialised, two would lose one.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<5 { try store.recordFailure(StoreFixture.failure(UInt64(10 + task * 5 + index))) }
                }
            }
            try await group.waitForAll()
        }
        let state = BundleStore(directory: directory).load()
        #expect(Set(state.failed) == Set((10..<50).map { StoreFixture.failure(UInt64($0)) }))
        #expect(state.current == StoreFixture.update(seq: 1) && state.problems.isEmpty)
    }
}
