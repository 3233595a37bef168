import Foundation
import Junction
import JunctionShipping
import Testing

/// Regression (issue 27, item 7): the store opened `state.json` and objects with a blocking
/// `open(2)`, so a FIFO in their place held the launch forever, before any decision. Now
/// anything but a regular file — a FIFO, a device, a link out of the folder, a directory —
/// is damage: refused within a second without reading it, the store falls back as for any
/// damage, the launch goes on, and the next change replaces it.
@Suite struct BundleStoreSpecialFileTests {
    /// Which file is replaced.
    enum Place: String, CaseIterable, CustomStringConvertible, Sendable {
        /// `state.json`: the store falls back to `state.previous.json`.
        case state
        /// The current update's artifact: the store falls back to the last-known-good.
        case object

        var description: String { rawValue }

        func path(_ directory: String) -> String {
            switch self {
            case .state: directory + "/state.json"
            case .object: "\(directory)/objects/\(StoreFixture.update(seq: 3).identity.artifactSHA256).jbundle"
            }
        }
    }

    /// Seq 1, 2 and 3 committed: state.json names 3 and 2, state.previous.json 2 and 1.
    private func threeCommits() throws -> String {
        let directory = try StoreFixture.directory()
        let store = BundleStore(directory: directory)
        for seq: UInt64 in 1...3 { try store.commit(StoreFixture.update(seq: seq)) }
        return directory
    }

    @Test(arguments: SpecialFile.allCases, Place.allCases)
    func anythingButARegularFileIsDamageAndTheStoreFallsBack(_ special: SpecialFile, _ place: Place) throws {
        let directory = try threeCommits()
        defer { StoreFixture.remove(directory) }
        let path = place.path(directory)
        let outside = (directory as NSString).deletingLastPathComponent + "/outside"
        guard try special.make(at: path, outside: outside) else { return }  // a device needs root
        let outsideBytes = FileManager.default.contents(atPath: outside)

        let state = try #require(try SpecialFile.within(30) { BundleStore(directory: directory).load() })
        #expect(
            state.problems.map(\.description) == [
                "corrupt: open \(path): \(special.kind), where the store keeps a regular file it wrote; it is not read"
            ])
        switch place {
        case .state:
            #expect(state.current == StoreFixture.update(seq: 2))
            #expect(state.lastKnownGood == StoreFixture.update(seq: 1))
        case .object:
            #expect(state.current == nil)
            #expect(state.lastKnownGood == StoreFixture.update(seq: 2))
        }

        // The next change goes on, replaces what was there, and nothing outside is touched
        // (a directory is not removed: `rename(2)` cannot replace it, and the change says so).
        guard special != .directory || place != .state else { return }
        let store = BundleStore(directory: directory)
        let committed = try SpecialFile.within(30) {
            try store.commit(StoreFixture.update(seq: 4))
            return true
        }
        #expect(committed == true)
        let after = store.load()
        #expect(after.current == StoreFixture.update(seq: 4))
        #expect(after.lastKnownGood == StoreFixture.update(seq: 2))
        #expect(after.problems.isEmpty)
        #expect(FileManager.default.contents(atPath: outside) == outsideBytes)
    }

    /// The installer launches within a second on what the store can still prove.
    @Test(arguments: Place.allCases)
    func theLaunchGoesOnPastAFIFO(_ place: Place) async throws {
        let directory = InstallerFixture.directory()
        defer { InstallerFixture.remove(directory) }
        let installer = try InstallerFixture.launch(directory)
        for (pointer, artifact) in [
            (InstallerFixture.pointer5, InstallerFixture.artifact5),
            (InstallerFixture.pointer6, InstallerFixture.artifact6),
        ] {
            await installer.install(
                pointer: pointer, at: InstallerFixture.now, fetch: InstallerFixture.Server(artifact).fetch)
        }
        let path =
            place == .state
            ? directory + "/state.json"
            : directory + "/objects/\(InstallerFixture.identity6.artifactSHA256).jbundle"
        #expect(try SpecialFile.fifo.make(at: path, outside: ""))

        let restarted = try #require(try SpecialFile.within(30) { try InstallerFixture.launch(directory) })
        #expect(restarted.policy.current.identity == InstallerFixture.identity5)
        #expect(restarted.policy.current.origin == (place == .state ? .persisted : .lastKnownGood))
        #expect(InstallerFixture.decidesUnderSeq5(restarted.policy))
    }

    @Test(arguments: SpecialFile.allCases.filter { $0 != .directory })
    func anInstallIDThatIsNoRegularFileIsReplaced(_ special: SpecialFile) throws {
        let directory = try StoreFixture.directory()
        defer { StoreFixture.remove(directory) }
        _ = try BundleStore(directory: directory).installID()
        let path = directory + "/install-id"
        guard try special.make(at: path, outside: (directory as NSString).deletingLastPathComponent + "/outside")
        else { return }
        let id = try #require(try SpecialFile.within(30) { try BundleStore(directory: directory).installID() })
        #expect(id.utf8.count == 32)
        #expect(try BundleStore(directory: directory).installID() == id)
    }
}
