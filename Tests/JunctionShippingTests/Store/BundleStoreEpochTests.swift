import Foundation
import Junction
import JunctionShipping
import JunctionArtifact
import Testing

/// The ratchet's seq bound and its epoch: what the store refuses, what it persists, and
/// that state files written before epochs read as they did.
@Suite struct BundleStoreEpochTests {
    static let hash = String(repeating: "a", count: 64)

    /// An update of `epoch` and `seq`, its files as the fixture's.
    static func update(epoch: UInt64, seq: UInt64) -> StoredUpdate {
        let plain = StoreFixture.update(seq: seq % 1_000 + epoch % 1_000 * 1_000)
        return StoredUpdate(
            identity: UpdateIdentity(epoch: epoch, seq: seq, artifactSHA256: plain.identity.artifactSHA256),
            pointer: plain.pointer, artifact: plain.artifact)
    }

    /// Issue 27, item 5: a ratchet of seq 9223372036854775807 was persisted, and nothing
    /// could pass it. The store refuses to move the ratchet above 2⁵³ − 1, and writes nothing.
    @Test(arguments: [ChannelPointer.maximumSeq + 1, UInt64(Int64.max)])
    func aSeqAboveTwoToThe53IsNeverStored(seq: UInt64) throws {
        let directory = try StoreFixture.directory()
        defer { StoreFixture.remove(directory) }
        let store = BundleStore(directory: directory)
        for update in [Self.update(epoch: 0, seq: seq), Self.update(epoch: seq, seq: 1)] {
            #expect(throws: StoreError.self) { try store.commit(update) }
            do { try store.commit(update) } catch { #expect(error.code == .seqTooLarge) }
            let pin = StoredPin(identity: update.identity, pointer: update.pointer)
            do { try store.pin(pin) } catch { #expect(error.code == .seqTooLarge) }
        }
        #expect(!FileManager.default.fileExists(atPath: directory))
        // The largest that is stored.
        try store.commit(Self.update(epoch: 0, seq: ChannelPointer.maximumSeq))
        #expect(store.load().ratchet?.seq == ChannelPointer.maximumSeq)
    }

    /// A state file written before epochs, holding the ratchet of issue 27's typo, still
    /// reads — as epoch 0 — and an update of epoch 1 moves past it; after that, no update of
    /// epoch 0 is committed, whatever its seq.
    @Test func aStateFileFromBeforeEpochsReadsAndAHigherEpochMovesPastItsRatchet() throws {
        let directory = try StoreFixture.directory()
        defer { StoreFixture.remove(directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let old = #"{"failed":[],"format":1,"ratchet":{"artifact":"\#(Self.hash)","seq":9223372036854775807}}"#
        try StoreFixture.overwrite(directory + "/state.json", with: Array(old.utf8))
        let store = BundleStore(directory: directory)
        let loaded = store.load()
        #expect(loaded.problems.isEmpty)
        #expect(loaded.ratchet == UpdateIdentity(epoch: 0, seq: UInt64(Int64.max), artifactSHA256: Self.hash))

        #expect(throws: StoreError.self) { try store.commit(Self.update(epoch: 0, seq: 5)) }
        let recovery = Self.update(epoch: 1, seq: 1)
        try store.commit(recovery)
        let state = store.load()
        #expect(state.problems.isEmpty)
        #expect(state.ratchet == recovery.identity)
        #expect(state.current == recovery)
        let text = String(decoding: try StoreFixture.contents(directory + "/state.json"), as: UTF8.self)
        #expect(text.contains(#""epoch":1,"#))

        for replay in [Self.update(epoch: 0, seq: ChannelPointer.maximumSeq), Self.update(epoch: 0, seq: 2)] {
            do {
                try store.commit(replay)
                Issue.record("\(replay.identity) was committed over epoch 1")
            } catch { #expect(error.code == .rollback) }
        }
        // Within epoch 1 the seq goes on as ever.
        try store.commit(Self.update(epoch: 1, seq: 2))
        #expect(store.load().ratchet?.seq == 2)
    }

    /// Epoch 0 is not written, so a store that never saw an epoch writes the bytes it wrote
    /// before — which an app from before epochs reads.
    @Test func epochZeroIsNotWritten() throws {
        let directory = try StoreFixture.directory()
        defer { StoreFixture.remove(directory) }
        let store = BundleStore(directory: directory)
        try store.commit(StoreFixture.update(seq: 3))
        try store.recordFailure(StoreFixture.failure(4))
        let text = String(decoding: try StoreFixture.contents(directory + "/state.json"), as: UTF8.self)
        #expect(!text.contains("epoch"))
    }
}
