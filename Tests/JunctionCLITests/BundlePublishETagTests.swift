import Foundation
import JunctionArtifact
import Testing

@testable import JunctionCLI

/// Issue 27, item 8: nginx's ETag for a pointer is `"<mtime>-<size>"`, so after an unusual
/// publish sequence — the pointer deleted, restored from a backup, replaced with `--force`,
/// or published twice within a second — a new pointer could carry the ETag of one the
/// channel had served, and a device holding that ETag was told `304 Not Modified` about it.
/// Each publish now dates its pointer after the channel's mark, `channels/.NAME.served`.
@Suite struct BundlePublishETagTests {
    typealias Setup = BundlePublishCommandTests.Setup

    /// A pointer file as nginx validates it: its modification second and its size.
    struct Served: Hashable, CustomStringConvertible {
        var mtime: Int
        var size: Int

        /// nginx's `ngx_http_set_etag`: `"%xT-%xO"`, the last-modified second and the
        /// content length in lowercase hex.
        var etag: String { "\"\(String(mtime, radix: 16))-\(String(size, radix: 16))\"" }

        var description: String { etag }

        init(mtime: Int, size: Int) {
            self.mtime = mtime
            self.size = size
        }

        init(_ path: String) throws {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let modified = try #require(attributes[.modificationDate] as? Date)
            mtime = Int(modified.timeIntervalSince1970.rounded(.down))
            size = try #require((attributes[.size] as? NSNumber)?.intValue)
        }
    }

    /// What can happen to the pointer file between two publishes.
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case deleted
        /// The first pointer's bytes put back with its own, older modification time (`cp -p`).
        case restoredFromABackup
        /// Something that does not verify, dated long ago, replaced with `--seq N --force`.
        case replacedWithForce

        var testDescription: String { rawValue }
    }

    @Test func pointersPublishedWithinOneSecondNeverShareAnETag() throws {
        let setup = try Setup()
        let path = setup.site + "/channels/stable.json"
        let created = ["--created", ShippingFixtures.recent]
        var served: [Served] = []
        for _ in 1...4 {
            let result = try setup.publish(created)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            served.append(try Served(path))
        }
        // One size throughout (seq 1 to 4, the salt kept): only the second tells them apart.
        try #require(Set(served.map(\.size)).count == 1, "\(served)")
        #expect(zip(served, served.dropFirst()).allSatisfy { $0.mtime < $1.mtime }, "\(served)")
        #expect(Set(served.map(\.etag)).count == served.count, "\(served)")
        #expect(
            try String(contentsOfFile: setup.site + "/channels/.stable.served", encoding: .utf8)
                == "\(served[3].mtime)\n")
    }

    /// The same second for every publish, as when they all run within it: the mark alone
    /// separates them, even with the pointer file gone in between.
    @Test func theMarkDatesEachPointerAfterTheLastWithinOneSecond() throws {
        let setup = try Setup()
        try FileManager.default.createDirectory(atPath: setup.site + "/channels", withIntermediateDirectories: true)
        let path = setup.site + "/channels/stable.json"
        let now = Date(timeIntervalSince1970: 1_800_000_000.75)
        var times: [Int] = []
        for round in 0..<4 {
            let mark = try ChannelServedMark(directory: setup.site, channel: "stable")
            let time = try mark.nextTime(replacing: path, now: now)
            try mark.record(time)
            try AtomicFile.write(Array("{}".utf8), to: path, modified: time)
            times.append(time)
            if round == 1 { try FileManager.default.removeItem(atPath: path) }
        }
        #expect(times == [1_800_000_000, 1_800_000_001, 1_800_000_002, 1_800_000_003])
    }

    @Test(arguments: Damage.allCases)
    func aPublishAfterThePointerFileWasLostOrRestoredRepeatsNoServedETag(damage: Damage) throws {
        let setup = try Setup()
        let path = setup.site + "/channels/stable.json"
        let created = ["--created", ShippingFixtures.recent]
        #expect(try setup.publish(created).status == 0)
        // The first pointer dated two seconds ahead of the clock, as a run of publishes within
        // a second (or a clock set back since) leaves it: the next ones follow it.
        let ahead = Int(Date().timeIntervalSince1970) + 2
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: TimeInterval(ahead))], ofItemAtPath: path)
        let backup = try ShippingFixtures.bytes(path)
        var served = [try Served(path)]
        for _ in 2...3 {
            #expect(try setup.publish(created).status == 0)
            served.append(try Served(path))
        }

        var options = created + ["--seq", "4"]
        switch damage {
        case .deleted:
            try FileManager.default.removeItem(atPath: path)
        case .restoredFromABackup:
            try Data(backup).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: TimeInterval(ahead))], ofItemAtPath: path)
        case .replacedWithForce:
            try Data(repeating: 0x20, count: backup.count).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: path)
            options.append("--force")
        }
        let latest = try #require(served.map(\.mtime).max())
        for _ in 1...3 {
            let result = try setup.publish(options)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            let pointer = try Served(path)
            #expect(pointer.size == served[0].size, "the size alone must not be what tells them apart")
            #expect(pointer.mtime > latest, "\(pointer) after \(served)")
            #expect(!served.map(\.etag).contains(pointer.etag), "\(pointer) repeats one of \(served)")
            served.append(pointer)
            options = created
        }
    }

    @Test(arguments: ["yesterday\n", "1234567890123\n", "", "17e8\n"])
    func aMarkWithoutATimeIsRefusedNamingIt(text: String) throws {
        let setup = try Setup()
        #expect(try setup.publish([]).status == 0)
        let path = setup.site + "/channels/stable.json"
        let before = try ShippingFixtures.bytes(path)
        let mark = setup.site + "/channels/.stable.served"
        try text.write(toFile: mark, atomically: true, encoding: .utf8)
        let result = try setup.publish([])
        #expect(result.status == 1)
        #expect(
            result.stdout
                == "\(path): refused: \(mark) does not hold a time in whole seconds since 1970, up to 253402300799; it records the latest modification time a pointer of the channel was given, so that no new pointer repeats a served one's ETag (nginx's \"<mtime>-<size>\"): write in it, in seconds since 1970, the latest modification time a pointer of the channel was served with, or any later one, and publish again\n"
        )
        #expect(try ShippingFixtures.bytes(path) == before)
    }

    @Test func aMarkThatIsNotARegularFileIsRefusedUnread() throws {
        let setup = try Setup()
        #expect(try setup.publish([]).status == 0)
        let mark = setup.site + "/channels/.stable.served"
        try FileManager.default.removeItem(atPath: mark)
        #expect(mkfifo(mark, 0o644) == 0)
        let result = try setup.publish([])
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("\(setup.site)/channels/stable.json: refused: \(mark) is not a regular file; "))
    }
}
