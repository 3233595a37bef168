import Crypto
import Foundation
import Junction
import JunctionShipping

/// What the store's tests share: fresh directories, updates with recognisable bytes, hashes.
enum StoreFixture {
    /// A new, empty directory under the temporary folder; the store's directory goes inside it.
    static func directory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("junction-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path + "/store"
    }

    /// Removes what ``directory()`` made, store and all.
    static func remove(_ directory: String) {
        try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent)
    }

    /// SHA-256 in lowercase hex.
    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// An update whose artifact and pointer both say `seq`, `size` bytes of artifact.
    static func update(seq: UInt64, size: Int = 4_096) -> StoredUpdate {
        var artifact = Array("artifact \(seq)\n".utf8)
        artifact += (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seq)) }
        let hash = sha256(artifact)
        let pointer = Array("{\"artifact\":\"\(hash)\",\"seq\":\(seq)}".utf8)
        return StoredUpdate(
            identity: UpdateIdentity(seq: seq, artifactSHA256: hash), pointer: pointer, artifact: artifact)
    }

    /// A kill switch of `seq`: its pointer names an artifact the store never holds.
    static func pin(seq: UInt64) -> StoredPin {
        let hash = sha256(Array("unfetched \(seq)".utf8))
        let pointer = Array("{\"artifact\":\"\(hash)\",\"pin_embedded\":true,\"seq\":\(seq)}".utf8)
        return StoredPin(identity: UpdateIdentity(seq: seq, artifactSHA256: hash), pointer: pointer)
    }

    /// What the probe commits for `seq` (its `ProbeUpdate.make(seq:)`, rebuilt here).
    static func probeUpdate(seq: UInt64) -> StoredUpdate {
        var artifact = Array("artifact \(seq)\n".utf8)
        artifact += (0..<(256 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seq)) }
        let hash = sha256(artifact)
        let pointer = Array("{\"artifact\":\"\(hash)\",\"seq\":\(seq)}".utf8)
        return StoredUpdate(
            identity: UpdateIdentity(seq: seq, artifactSHA256: hash), pointer: pointer, artifact: artifact)
    }

    /// A failed identity that no update here has.
    static func failure(_ seq: UInt64) -> UpdateIdentity {
        UpdateIdentity(seq: seq, artifactSHA256: String(repeating: "f", count: 63) + String(seq % 10))
    }

    /// A state in one line, for failure messages: seq and hash prefixes, not megabytes of bytes.
    static func summary(_ state: StoredState) -> String {
        func update(_ update: StoredUpdate?) -> String {
            update.map { "\($0.identity) (\($0.artifact.count) + \($0.pointer.count) bytes)" } ?? "none"
        }
        return
            "current \(update(state.current)), last-known-good \(update(state.lastKnownGood)), pin \(state.pin.map { "\($0)" } ?? "none"), ratchet \(state.ratchet.map { "\($0)" } ?? "none"), failed \(state.failed), problems \(state.problems)"
    }

    /// Replaces a file's bytes.
    static func overwrite(_ path: String, with bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// A file's bytes.
    static func contents(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
