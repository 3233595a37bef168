import Foundation
import JunctionCore

extension HeaderFields {
    /// The most bytes of UTF-8 in a name, version or minimum host version.
    static let textLimit = 128

    /// The header these fields describe, once every rule of docs/artifacts.md holds:
    /// format, texts, dates, and the member table's paths, kinds, order and completeness.
    func validated(limits: ArtifactLimits) throws(ArtifactError) -> ArtifactHeader {
        func malformed(_ why: String) -> ArtifactError { ArtifactError(.malformedHeader, "the header \(why)") }
        guard format == Int(ArtifactFormat.version) else {
            throw malformed("says format \(format), but the file is format \(ArtifactFormat.version)")
        }
        for (field, text) in [("name", name), ("version", version), ("minimum_host_version", minimumHostVersion)] {
            guard let text else { continue }
            if let problem = Self.textProblem(text) { throw malformed("field \(field) \(problem)") }
        }
        guard let createdDate = RFC3339.parse(created) else {
            throw malformed("field created is not an RFC 3339 UTC time in whole seconds (2026-01-31T09:00:00Z)")
        }
        guard let expiresDate = RFC3339.parse(expires) else {
            throw malformed("field expires is not an RFC 3339 UTC time in whole seconds (2026-01-31T09:00:00Z)")
        }
        guard expiresDate > createdDate else {
            throw malformed("expires at \(expires), not after it was created at \(created)")
        }
        var members: [ArtifactMember] = []
        members.reserveCapacity(self.members.count)
        var previous: String?
        var seen: Set<String> = []
        for row in self.members {
            guard let kind = ArtifactMemberKind(named: row.kind) else {
                throw ArtifactError(
                    .unknownMemberKind,
                    "member \(Self.quoted(row.path)) has kind \(Self.quoted(row.kind)); expected manifest, routes, tests or lua"
                )
            }
            if let problem = MemberPathRules.problem(with: row.path, kind: kind, limits: limits) {
                throw ArtifactError(.badPath, "member path \(Self.quoted(row.path)) \(problem)")
            }
            guard seen.insert(row.path).inserted else {
                throw ArtifactError(.duplicateMember, "member \(Self.quoted(row.path)) is listed twice")
            }
            if let previous, !previous.utf8.lexicographicallyPrecedes(row.path.utf8) {
                throw malformed(
                    "lists member \(Self.quoted(row.path)) after \(Self.quoted(previous)); members are sorted by path")
            }
            previous = row.path
            members.append(ArtifactMember(path: row.path, kind: kind, length: row.length, sha256: row.sha256))
        }
        for required in [ArtifactMemberKind.manifest, .routes] where !members.contains(where: { $0.kind == required }) {
            throw ArtifactError(.missingMember, "the artifact has no \(required) member (\(required.fixedPath ?? ""))")
        }
        return ArtifactHeader(
            format: format, name: name, version: version, created: createdDate, expires: expiresDate,
            minimumHostVersion: minimumHostVersion, keyID: keyID, members: members)
    }

    /// Why `text` is not a header text, or `nil`.
    static func textProblem(_ text: String) -> String? {
        if text.isEmpty { return "is empty" }
        if text.utf8.count > textLimit { return "has \(text.utf8.count) bytes; at most \(textLimit) are allowed" }
        // Bidi controls and line separators too: `exa\u{202E}elpm` printed as "example".
        if let (scalar, _) = ControlCharacters.first(in: text) {
            return
                "\(quoted(text)) holds the control character \(ControlCharacters.name(scalar)); it is one line of visible characters"
        }
        return nil
    }

    /// `text` in quotes, cut at 64 characters, control characters, line separators and bidi
    /// controls escaped (`\u{202E}`): it came from an untrusted file and goes into a message.
    static func quoted(_ text: String) -> String {
        let cut = text.count > 64 ? String(text.prefix(64)) + "…" : text
        return "\"" + ControlCharacters.escaped(cut) + "\""
    }
}
