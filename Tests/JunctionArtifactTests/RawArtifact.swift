import Foundation
import JunctionArtifact

/// A test-only writer that lays out and signs whatever it is given — a header with a
/// traversal path, a duplicate, a wrong hash — so that what refuses it is the reader's
/// structural check, not the signature. It writes the canonical header itself, a second
/// implementation of docs/artifacts.md that the builder's output is compared with.
struct RawArtifact {
    struct Member {
        var path: String
        var kind: String
        var bytes: [UInt8]
        var length: Int? = nil
        var sha256: String? = nil
    }

    var format = 1
    var name = "example"
    var version = "3.1"
    var created = "2026-05-31T12:00:00Z"
    var expires = "2026-07-01T00:00:00Z"
    var minimumHostVersion: String? = "2.0"
    var keyID = Fixtures.key.keyID
    var members: [Member] = Fixtures.members.sorted { $0.path < $1.path }.map {
        Member(path: $0.path, kind: $0.kind.name, bytes: $0.bytes)
    }
    var magic: [UInt8] = Array("JBNDL".utf8) + [0]
    var formatVersion: UInt16 = 1
    /// Replaces the header's text when set.
    var headerText: String? = nil

    /// The canonical header: keys in byte order, no whitespace.
    var header: String {
        if let headerText { return headerText }
        let rows = members.map {
            #"{"kind":\#(Self.quote($0.kind)),"length":\#($0.length ?? $0.bytes.count),"path":\#(Self.quote($0.path)),"sha256":"\#($0.sha256 ?? Fixtures.sha256($0.bytes))"}"#
        }
        let minimum = minimumHostVersion.map { #","minimum_host_version":\#(Self.quote($0))"# } ?? ""
        return
            #"{"created":"\#(created)","expires":"\#(expires)","format":\#(format),"key_id":"\#(keyID)","members":[\#(rows.joined(separator: ","))]\#(minimum),"name":\#(Self.quote(name)),"version":\#(Self.quote(version))}"#
    }

    /// The bytes before the signature.
    var unsigned: [UInt8] {
        let header = Array(self.header.utf8)
        var bytes = magic + [UInt8(formatVersion >> 8), UInt8(formatVersion & 0xFF)]
        for shift in [24, 16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: header.count >> shift)) }
        bytes += header
        for member in members { bytes += member.bytes }
        return bytes
    }

    /// The bytes, signed with `key`.
    func signed(with key: SigningKey = Fixtures.key) -> [UInt8] {
        let bytes = unsigned
        return bytes + key.signature(for: bytes[...])
    }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
