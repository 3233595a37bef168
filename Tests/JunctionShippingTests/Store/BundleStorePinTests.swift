import Foundation
import Junction
import JunctionShipping
import JunctionTestSupport
import Testing

/// The kill switch in the store: recorded with its exact pointer bytes, the ratchet moved,
/// the updates kept while it holds, lifted by the next commit.
@Suite struct BundleStorePinTests {
    @Test func aPinIsRecordedByteForByteAndKeepsTheUpdates() throws {
        let directory = try StoreFixture.directory()
        defer { StoreFixture.remove(directory) }
        let store = BundleStore(directory: directory)
        try store.commit(StoreFixture.update(seq: 1))
        try store.commit(StoreFixture.update(seq: 2))
        let pin = StoreFixture.pin(seq: 3)
        try store.pin(pin)
        let state = BundleStore(directory: directory).load()
        #expect(
            state
                == StoredState(
                    current: StoreFixture.update(seq: 2), lastKnownGood: StoreFixture.update(seq: 1), pin: pin,
                    ratchet: pin.identity))
        #expect(
            try StoreFixture.contents("\(directory)/pointers/\(StoreFixture.sha256(pin.pointer)).json") == pin.pointer)
        // Nothing was collected: both updates' files are still there.
        let objects = try FileManager.default.contentsOfDirectory(atPath: directory + "/objects").sorted()
        #expect(
            objects
                == [1, 2].map { "\(StoreFixture.update(seq: UInt64($0)).identity.artifactSHA256).jbundle" }.sorted())
    }

    @Test func aCommitOfAHigherSeqLiftsThePinAndCollectsItsPointer() throws {
        let directory = try StoreFixture.directory()
        defer { StoreFixture.remove(directory) }
        let store = BundleStore(directory: directory)
        try store.commit(StoreFixture.update(seq: 1))
        let pin = StoreFixture.pin(seq: 2)
        try store.pin(pin)
        try store.commit(StoreFixture.update(seq: 3))
        try store.recordFailure(StoreFixture.failure(9))
        let state = BundleStore(directory: directory).load()
        #expect(state.pin == nil)
        #expect(state.current == StoreFixture.update(seq: 3))
        #expect(state.lastKnownGood == StoreFixture.update(seq: 1))
        let pointers = try FileManager.default.contentsOfDirectory(atPath: directory + "/pointers")
        #expect(!pointers.contains("\(StoreFixture.sha256(pin.pointer)).json"), "\(pointers)")
    }

    @Test(arguments: [(UInt64(4), "a lower seq"), (UInt64(5), "the same seq with another artifact")])
    func aPinBelowTheRatchetIsRefused(seq: UInt64, what: String) throws {
        let directory = try StoreFixture.directory()
        defer { StoreFixture.remove(directory) }
        let store = BundleStore(directory: directory)
        let accepted = StoreFixture.update(seq: 5)
        try store.commit(accepted)
        let pin = StoreFixture.pin(seq: seq)
        #expect(
            throws: StoreError(
                .rollback, path: directory + "/state.json",
                "pin \(pin.identity): the ratchet is at \(accepted.identity), the update accepted last; to roll back, publish the older artifact again under a higher seq"
            ), "\(what)"
        ) { try store.pin(pin) }
        #expect(store.load().pin == nil)
    }

    @Test func anOversizePinPointerIsRefusedBeforeAnythingIsWritten() throws {
        let directory = try StoreFixture.directory()
        defer { StoreFixture.remove(directory) }
        let limits = BundleStoreLimits(maximumPointerBytes: 64)
        let pin = StoreFixture.pin(seq: 1)
        #expect(
            throws: StoreError(
                .oversize, path: directory + "/pointers",
                "pin \(pin.identity): the pointer has \(pin.pointer.count) bytes, more than the 64 the store keeps")
        ) { try BundleStore(directory: directory, limits: limits).pin(pin) }
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test func aDamagedPinPointerIsReportedAndNotReturned() throws {
        let directory = try StoreFixture.directory()
        defer { StoreFixture.remove(directory) }
        let store = BundleStore(directory: directory)
        try store.commit(StoreFixture.update(seq: 1))
        let pin = StoreFixture.pin(seq: 2)
        try store.pin(pin)
        let name = StoreFixture.sha256(pin.pointer)
        let path = "\(directory)/pointers/\(name).json"
        try StoreFixture.overwrite(path, with: Array("{}".utf8))
        let state = BundleStore(directory: directory).load()
        #expect(state.pin == nil)
        #expect(state.ratchet == pin.identity, "the ratchet stays at the pin: the same pointer pins again")
        #expect(state.current == StoreFixture.update(seq: 1))
        #expect(
            state.problems.map(\.message) == [
                "\(path): its SHA-256 is \(StoreFixture.sha256(Array("{}".utf8))), not the \(name) its name says; the kill switch update \(pin.identity) is not used"
            ])
    }
}
