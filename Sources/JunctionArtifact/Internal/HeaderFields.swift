import Foundation

/// A header as its JSON says it, before anything in it is trusted: the reader decodes it
/// to find the key and the signature, and validates the rest (``validated(limits:)``)
/// only once the signature holds.
struct HeaderFields {
    /// One row of the member table, as written.
    struct Row {
        var path: String
        var kind: String
        var length: Int
        var sha256: String
    }

    var format: Int
    var name: String
    var version: String
    var created: String
    var expires: String
    var minimumHostVersion: String?
    var keyID: String
    var members: [Row]

    /// The header's one canonical byte form.
    var canonicalJSON: [UInt8] {
        var object: [(String, CanonicalHeaderJSON.Value)] = [
            ("format", .integer(Int64(format))),
            ("name", .string(name)),
            ("version", .string(version)),
            ("created", .string(created)),
            ("expires", .string(expires)),
            ("key_id", .string(keyID)),
            (
                "members",
                .array(
                    members.map {
                        .object([
                            ("path", .string($0.path)), ("kind", .string($0.kind)),
                            ("length", .integer(Int64($0.length))), ("sha256", .string($0.sha256)),
                        ])
                    })
            ),
        ]
        if let minimumHostVersion { object.append(("minimum_host_version", .string(minimumHostVersion))) }
        return CanonicalHeaderJSON.encode(.object(object))
    }

    /// The fields of `bytes`, which must be the canonical JSON of a header whose member
    /// count is within `limits` and whose key id and hashes are well-formed hex.
    static func decode(_ bytes: ArraySlice<UInt8>, limits: ArtifactLimits) throws(ArtifactError) -> HeaderFields {
        func malformed(_ why: String) -> ArtifactError { ArtifactError(.malformedHeader, "the header \(why)") }
        guard nestingDepth(bytes) <= 3 else { throw malformed("nests deeper than 3 levels") }
        guard let parsed = try? JSONSerialization.jsonObject(with: Data(bytes)),
            let object = parsed as? [String: Any]
        else { throw malformed("is not a JSON object") }
        let known: Set = [
            "format", "name", "version", "created", "expires", "minimum_host_version", "key_id", "members",
        ]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw malformed("has an unknown field \"\(unknown.prefix(64))\"")
        }
        func string(_ key: String, in object: [String: Any], _ place: String = "") throws(ArtifactError) -> String {
            guard let value = object[key] as? String else { throw malformed("\(place)field \(key) is not text") }
            return value
        }
        func integer(_ key: String, in object: [String: Any], _ place: String = "") throws(ArtifactError) -> Int {
            // A JSON `true` or `1.0` also reads as 1 here; the canonical comparison refuses it.
            guard let number = object[key] as? NSNumber, let value = Int(exactly: number.doubleValue)
            else { throw malformed("\(place)field \(key) is not a whole number") }
            return value
        }
        guard let rows = object["members"] as? [Any] else { throw malformed("field members is not a list") }
        if rows.count > limits.memberCount {
            throw ArtifactError(
                .oversize, "the header lists \(rows.count) members; at most \(limits.memberCount) are allowed")
        }
        var members: [Row] = []
        members.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            let place = "member \(index + 1)'s "
            guard let row = row as? [String: Any] else { throw malformed("member \(index + 1) is not an object") }
            if let unknown = row.keys.sorted().first(where: { !["path", "kind", "length", "sha256"].contains($0) }) {
                throw malformed("member \(index + 1) has an unknown field \"\(unknown.prefix(64))\"")
            }
            let member = Row(
                path: try string("path", in: row, place), kind: try string("kind", in: row, place),
                length: try integer("length", in: row, place), sha256: try string("sha256", in: row, place))
            guard member.length >= 0 else { throw malformed("\(place)length is negative") }
            guard Hex.isLowercase(member.sha256, count: 64) else {
                throw malformed("\(place)sha256 is not 64 lowercase hex digits")
            }
            members.append(member)
        }
        var minimumHostVersion: String?
        if object["minimum_host_version"] != nil {
            minimumHostVersion = try string("minimum_host_version", in: object)
        }
        let fields = HeaderFields(
            format: try integer("format", in: object), name: try string("name", in: object),
            version: try string("version", in: object), created: try string("created", in: object),
            expires: try string("expires", in: object), minimumHostVersion: minimumHostVersion,
            keyID: try string("key_id", in: object), members: members)
        guard Hex.isLowercase(fields.keyID, count: 16) else {
            throw malformed("field key_id is not 16 lowercase hex digits")
        }
        // One byte form only: a header that decodes the same but is written otherwise
        // (spaces, escapes, key order, 1.0 for 1) would be a second signed form of one header.
        guard fields.canonicalJSON.elementsEqual(bytes) else { throw malformed("is not in canonical form") }
        return fields
    }

    /// How deep `bytes` nest objects and lists, read outside strings: a header nests three
    /// deep, so a deeper one is refused before a recursive parser could spend its stack on it.
    static func nestingDepth(_ bytes: ArraySlice<UInt8>) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                deepest = max(deepest, depth)
                if deepest > 3 { return deepest }
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}
