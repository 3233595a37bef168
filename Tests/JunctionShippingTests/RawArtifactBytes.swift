import Foundation
import Junction
import JunctionShipping
import JunctionArtifact
import JunctionCore

/// Lays out and signs whatever members it is given — an unknown kind, a duplicate, a
/// traversal, a missing route table — so that what refuses them on the device is the
/// artifact's structural check, not its signature (the builder would refuse to write them).
struct RawArtifactBytes {
    var members: [(path: String, kind: String, bytes: [UInt8])]
    var formatVersion: UInt16 = 1
    /// Bytes after the members that the member table does not account for.
    var trailing: [UInt8] = []

    /// The next bundle's members, sorted by path.
    init(_ members: ShippingFixture.Members = ShippingFixture.next) {
        var rows = [
            ("manifest.json", "manifest", members.manifest), ("routes.json", "routes", members.routes),
            ("tests.json", "tests", members.tests),
        ]
        rows += members.lua.map { ($0.key, "lua", $0.value) }
        self.members = rows.sorted { $0.0 < $1.0 }.map { (path: $0.0, kind: $0.1, bytes: $0.2) }
    }

    /// The bytes, signed with `key`.
    func signed(with key: SigningKey = ShippingFixture.key) -> [UInt8] {
        let table: [RuleValue] = members.map {
            .table([
                "kind": .string($0.kind), "length": .int(Int64($0.bytes.count)), "path": .string($0.path),
                "sha256": .string(ShippingFixture.hash($0.bytes)),
            ])
        }
        let header = try! CanonicalJSON.encode(
            .table([
                "created": .string("2027-01-14T08:00:00Z"), "expires": .string("2027-02-14T08:00:00Z"),
                "format": .int(1), "key_id": .string(key.keyID), "members": .array(table),
                "minimum_host_version": .string("5.0.0"), "name": .string("shop"), "version": .string("1.4.0"),
            ]))
        var bytes = Array("JBNDL".utf8) + [0, UInt8(formatVersion >> 8), UInt8(formatVersion & 0xFF)]
        for shift in [24, 16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: header.count >> shift)) }
        bytes += header
        for member in members { bytes += member.bytes }
        bytes += trailing
        return bytes + key.signature(for: bytes[...])
    }
}
