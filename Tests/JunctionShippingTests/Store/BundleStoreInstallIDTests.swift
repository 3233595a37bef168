import Foundation
import Junction
import JunctionShipping
import JunctionTestSupport
import Testing

/// The device's install id: drawn once, kept across instances and restarts, replaced when
/// damaged, and never half-written.
@Suite struct BundleStoreInstallIDTests {
    static func isInstallID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    @Test func theIdIsDrawnOnceAndKept() throws {
        let directory = try StoreFixture.directory()
        let id = try BundleStore(directory: directory).installID()
        #expect(Self.isInstallID(id), "\(id)")
        #expect(try BundleStore(directory: directory).installID() == id)
        #expect(try StoreFixture.contents(directory + "/install-id") == Array(id.utf8))
        #expect(
            try BundleStore(directory: try StoreFixture.directory()).installID() != id, "each install draws its own")
    }

    @Test(arguments: ["", "xyz", String(repeating: "A", count: 32), String(repeating: "0", count: 33), "0123\n"])
    func aDamagedIdIsReplacedWithAWarning(content: String) throws {
        let directory = try StoreFixture.directory()
        let store = BundleStore(directory: directory)
        _ = try store.installID()
        try StoreFixture.overwrite(directory + "/install-id", with: Array(content.utf8))
        let log = CapturedLog()
        let id = try BundleStore(directory: directory, logger: log.logger).installID()
        #expect(Self.isInstallID(id) && id != content)
        #expect(log.messages.contains { $0.contains("install-id is damaged") }, "\(log.messages)")
        #expect(try BundleStore(directory: directory).installID() == id)
    }

    @Test func aFailureAtAnyFileOperationThrowsAndNeverLeavesAPartialId() throws {
        var failures = 0
        for step in 0..<12 {
            let directory = try StoreFixture.directory()
            let store = BundleStore(directory: directory, fileSystem: FaultyFileSystem(failAt: step))
            do {
                _ = try store.installID()
            } catch {
                failures += 1
            }
            // Whatever happened, what is on disk is no id or a whole one.
            if let bytes = try? StoreFixture.contents(directory + "/install-id") {
                #expect(Self.isInstallID(String(decoding: bytes, as: UTF8.self)), "step \(step)")
            }
            #expect(Self.isInstallID(try BundleStore(directory: directory).installID()))
        }
        #expect(failures >= 8, "every operation of the first write can fail: \(failures)")
    }
}
