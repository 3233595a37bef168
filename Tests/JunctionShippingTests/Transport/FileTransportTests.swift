import Foundation
import Junction
import JunctionShipping
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `file://` channels: regular files read up to the cap plus one byte; nothing else is read.
@Suite struct FileTransportTests {
    static func get(_ path: String, maximumBytes: Int = 1_000) async throws(UpdateTransportError) -> TransportResponse {
        try await FileTransport().send(
            TransportRequest(url: URL(fileURLWithPath: path), maximumBytes: maximumBytes, deadline: .now + .seconds(5)))
    }

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("junction-file-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aFileIsReadWhole() async throws {
        let folder = try Self.folder()
        try Data("pointer".utf8).write(to: URL(fileURLWithPath: folder + "/p.json"))
        let response = try await Self.get(folder + "/p.json")
        #expect(response == TransportResponse(status: 200, body: Array("pointer".utf8)))
        let empty = folder + "/empty"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(try await Self.get(empty).body.isEmpty)
    }

    @Test(arguments: [0, 1, 65_535, 65_536, 200_000])
    func aLargeFileIsReadToOnePastTheCap(cap: Int) async throws {
        let folder = try Self.folder()
        try Data(repeating: 7, count: 300_000).write(to: URL(fileURLWithPath: folder + "/big"))
        #expect(try await Self.get(folder + "/big", maximumBytes: cap).body.count == cap + 1)
    }

    @Test func anEndlessDeviceIsNotReadPastTheCap() async throws {
        // /dev/zero is not a regular file: refused before a byte is read.
        await #expect {
            _ = try await Self.get("/dev/zero")
        } throws: { error in
            (error as? UpdateTransportError)?.message.contains("not a regular file") == true
        }
    }

    @Test func aFolderAFIFOAndAMissingFileAreNotFound() async throws {
        let folder = try Self.folder()
        #expect(mkfifo(folder + "/fifo", 0o600) == 0)
        for path in [folder, folder + "/fifo", folder + "/missing"] {
            await #expect {
                _ = try await Self.get(path)
            } throws: { error in
                guard let error = error as? UpdateTransportError else { return false }
                return error.code == .notFound && error.message.hasPrefix(path)
            }
        }
    }

    @Test func otherSchemesAreRefused() async throws {
        await #expect {
            _ = try await FileTransport().send(
                TransportRequest(url: URL(string: "https://example.com/x")!, maximumBytes: 1, deadline: .now))
        } throws: { error in
            (error as? UpdateTransportError)?.code == .unsupportedURL
        }
    }
}
