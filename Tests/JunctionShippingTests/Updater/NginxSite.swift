import Foundation
import Junction
import JunctionShipping
import JunctionTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A publish folder served by nginx on loopback, written the way `junction bundle publish`
/// writes it: the object first, then the pointer, each by rename, the pointer one second
/// later than the one it replaces (nginx's ETag is `"<mtime>-<size>"`).
final class NginxSite: Sendable {
    let root: String
    let server: NginxServer

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("junction-site-\(UUID().uuidString)").path
        for folder in ["channels", "objects"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        server = try NginxServer(root: root)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// The channel's URL, under `prefix` (`/slow`, `/e500`) when given.
    func channel(_ prefix: String = "") -> URL { server.url(prefix + "/channels/stable.json") }

    var pointerPath: String { root + "/channels/stable.json" }

    func objectPath(_ artifact: [UInt8]) -> String { root + "/objects/\(ShippingFixture.hash(artifact)).jbundle" }

    /// Publishes `artifact` under `pointer`.
    func publish(artifact: [UInt8], pointer: [UInt8]) throws {
        try write(artifact, to: objectPath(artifact))
        try writePointer(pointer)
    }

    /// Replaces the pointer, one second past the one it replaces.
    func writePointer(_ bytes: [UInt8]) throws {
        let previous = (try? FileManager.default.attributesOfItem(atPath: pointerPath)[.modificationDate] as? Date)
            .flatMap { $0 }
        let now = Date().timeIntervalSince1970.rounded(.down)
        let time = max(now, (previous?.timeIntervalSince1970.rounded(.down) ?? 0) + 1)
        try write(bytes, to: pointerPath, modified: Date(timeIntervalSince1970: time))
    }

    /// Writes `bytes` at `path` by rename.
    func write(_ bytes: [UInt8], to path: String, modified: Date? = nil) throws {
        let temporary = path + ".tmp-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: temporary))
        if let modified {
            try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: temporary)
        }
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// The requests nginx served since `mark` (a count of ``NginxServer/requests``).
    func requests(since mark: Int) -> [String] { Array(server.requests.dropFirst(mark)) }
}
