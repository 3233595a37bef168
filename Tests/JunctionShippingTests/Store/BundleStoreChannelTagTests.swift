import Foundation
import Junction
import JunctionShipping
import JunctionTestSupport
import Testing

/// The channel's ETag in the store: kept with the pointer it came with, across commits and
/// restarts; a tag a server could abuse (long, control bytes) is refused before it is written.
@Suite struct BundleStoreChannelTagTests {
    static let pointerHash = String(repeating: "c", count: 64)

    @Test(arguments: [#""6b04c6f0-1388""#, #"W/"weak""#, #""with\"escapes\"and\\""#, "x"])
    func aTagRoundTripsAndSurvivesACommit(etag: String) throws {
        let directory = try StoreFixture.directory()
        let store = BundleStore(directory: directory)
        let tag = StoredChannelTag(etag: etag, pointerSHA256: Self.pointerHash)
        try store.rememberChannelTag(tag)
        #expect(BundleStore(directory: directory).load().channelTag == tag)
        try store.commit(StoreFixture.update(seq: 1))
        let state = BundleStore(directory: directory).load()
        #expect(state.channelTag == tag)
        #expect(state.problems.isEmpty)
    }

    @Test(arguments: [
        "", String(repeating: "e", count: 257), "tab\there", "new\nline", "caf\u{e9}", "space here",
    ])
    func aTagTheStoreDoesNotKeepIsRefusedAndNothingIsWritten(etag: String) throws {
        let directory = try StoreFixture.directory()
        let store = BundleStore(directory: directory)
        #expect(!StoredChannelTag.isStorable(etag))
        #expect {
            try store.rememberChannelTag(StoredChannelTag(etag: etag, pointerSHA256: Self.pointerHash))
        } throws: { error in
            (error as? StoreError)?.code == .mismatch
                && "\(error)".contains("an ETag is 1 to 256 bytes of visible ASCII")
        }
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test func aTagWithABadPointerHashIsRefused() throws {
        let store = BundleStore(directory: try StoreFixture.directory())
        #expect(throws: StoreError.self) {
            try store.rememberChannelTag(StoredChannelTag(etag: "\"a\"", pointerSHA256: "../../etc/passwd"))
        }
    }

    @Test func anEditedTagMakesTheStateFileCorruptAndTheFallbackIsUsed() throws {
        let directory = try StoreFixture.directory()
        let store = BundleStore(directory: directory)
        try store.commit(StoreFixture.update(seq: 1))
        try store.rememberChannelTag(StoredChannelTag(etag: "\"v1\"", pointerSHA256: Self.pointerHash))
        let path = directory + "/state.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: #""value":"\"v1\"""#, with: #""value":"\u0001""#)
            .write(toFile: path, atomically: true, encoding: .utf8)
        let state = BundleStore(directory: directory).load()
        #expect(state.channelTag == nil, "state.previous.json, from before the tag, is used")
        #expect(state.current == StoreFixture.update(seq: 1))
        #expect(state.problems.map(\.code) == [.corrupt])
    }
}
