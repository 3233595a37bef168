import JunctionCore

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

    /// The header's one canonical byte form: JunctionCore's canonical JSON, which a
    /// bundle's parts use too.
    var canonicalJSON: [UInt8] {
        var object: [String: RuleValue] = [
            "format": .int(Int64(format)),
            "name": .string(name),
            "version": .string(version),
            "created": .string(created),
            "expires": .string(expires),
            "key_id": .string(keyID),
            "members": .array(
                members.map {
                    [
                        "path": .string($0.path), "kind": .string($0.kind), "length": .int(Int64($0.length)),
                        "sha256": .string($0.sha256),
                    ]
                }),
        ]
        if let minimumHostVersion { object["minimum_host_version"] = .string(minimumHostVersion) }
        do {
            return try CanonicalJSON.encode(.table(object))
        } catch {
            // Text and integers three levels deep: JSON holds every such value.
            preconditionFailure("a header's fields have no JSON form: \(error)")
        }
    }

    /// The fields of `bytes`, which must be the canonical JSON of a header whose member
    /// count is within `limits` and whose key id and hashes are well-formed hex.
    ///
    /// Read strictly by JunctionCore's canonical JSON reader, capped at the header's size
    /// and at the three levels a header nests (so no recursion goes deeper): duplicate
    /// keys, unknown fields and values of the wrong type are refused, each at its place.
    /// With `canonicalFormCheckedBefore` (bytes that passed this check before, bound to
    /// their SHA-256), the fields are not written again to compare with the bytes.
    static func decode(
        _ bytes: ArraySlice<UInt8>, limits: ArtifactLimits, canonicalFormCheckedBefore: Bool = false
    ) throws(ArtifactError) -> HeaderFields {
        let text = Array(bytes)
        let value: RuleValue
        do {
            value = try CanonicalJSON.decode(
                text, limits: CanonicalJSONLimits(maximumBytes: limits.headerSize, maximumDepth: Self.depth))
        } catch {
            throw refusal(error)
        }
        guard case .table(let object) = value else {
            throw malformed("is \(CanonicalJSONObject.kind(of: value)), not a JSON object")
        }
        if case .array(let rows)? = object["members"], rows.count > limits.memberCount {
            throw ArtifactError(
                .oversize, "the header lists \(rows.count) members; at most \(limits.memberCount) are allowed")
        }
        let fields: HeaderFields
        do throws(CanonicalJSONError) {
            fields = try read(value)
        } catch {
            throw refusal(error)
        }
        for (index, member) in fields.members.enumerated() {
            guard member.length >= 0 else { throw malformed("field members[\(index)].length is negative") }
            guard Hex.isLowercase(member.sha256, count: 64) else {
                throw malformed("field members[\(index)].sha256 is not 64 lowercase hex digits")
            }
        }
        guard Hex.isLowercase(fields.keyID, count: 16) else {
            throw malformed("field key_id is not 16 lowercase hex digits")
        }
        // One byte form only: a header that decodes the same but is written otherwise
        // (spaces, escapes, key order) would be a second signed form of one header.
        guard canonicalFormCheckedBefore || fields.canonicalJSON == text else {
            throw malformed("is not in canonical form")
        }
        return fields
    }

    /// How deep a header nests: the object, its member table, each member.
    static let depth = 3

    private static func read(_ value: RuleValue) throws(CanonicalJSONError) -> HeaderFields {
        var object = try CanonicalJSONObject(value, at: "", file: "", what: "a header")
        guard let rows = try object.array("members") else { throw object.error(at: "", "missing \"members\"") }
        var members: [Row] = []
        members.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            var fields = try CanonicalJSONObject(row, at: "members[\(index)]", file: "", what: "a member")
            let member = Row(
                path: try fields.requiredString("path"), kind: try fields.requiredString("kind"),
                length: try fields.requiredInt("length"),
                sha256: try fields.requiredString("sha256"))
            try fields.finish()
            members.append(member)
        }
        let fields = HeaderFields(
            format: try object.requiredInt("format"), name: try object.requiredString("name"),
            version: try object.requiredString("version"),
            created: try object.requiredString("created"), expires: try object.requiredString("expires"),
            minimumHostVersion: try object.string("minimum_host_version"), keyID: try object.requiredString("key_id"),
            members: members)
        try object.finish()
        return fields
    }

    private static func malformed(_ why: String) -> ArtifactError {
        ArtifactError(.malformedHeader, "the header \(why)")
    }

    /// The reader's or a field's error as the artifact's: `the header at byte 3: …` for
    /// text that is not strict JSON, `the header field members[1].length: expected an
    /// integer, found text "69"` for a field, `the header: missing "name"`.
    private static func refusal(_ error: CanonicalJSONError) -> ArtifactError {
        let place =
            switch error.place {
            case "", "the document": ""
            case let place where place.hasPrefix("byte "): " at \(place)"
            case let place: " field \(place)"
            }
        return ArtifactError(.malformedHeader, "the header\(place): \(error.message)")
    }
}
