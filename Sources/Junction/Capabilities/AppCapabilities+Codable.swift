extension AppCapabilities: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case dispatchers
        case formatVersion = "format_version"
        case hostVersion = "host_version"
        case pages
        case tasks
    }

    /// A member of any name: decoding refuses those it does not know.
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Encodes the members of ``json()``, each list sorted.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.formatVersion, forKey: .formatVersion)
        try container.encode(hostVersion.description, forKey: .hostVersion)
        for (key, names) in [(CodingKeys.pages, pages), (.tasks, tasks), (.dispatchers, dispatchers)] {
            try container.encode(names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, forKey: key)
        }
    }

    /// Decodes what ``init(json:file:)`` reads, checking what it checks (within the limits of
    /// the decoder, not of that reader: use it for files).
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` at the member that is missing, of the wrong type, unknown,
    ///   or not a version, a name or a scheme.
    public init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: MemberKey.self)
        let known = Set(CodingKeys.allCases.map(\.stringValue))
        if let unknown = members.allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw DecodingError.dataCorruptedError(
                forKey: unknown, in: members,
                debugDescription: "unknown member; the document has \(known.sorted().joined(separator: ", "))")
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let format = try container.decode(Int.self, forKey: .formatVersion)
        guard format == Self.formatVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .formatVersion, in: container,
                debugDescription: "\(format) is not the format this Junction reads (\(Self.formatVersion))")
        }
        let text = try container.decode(String.self, forKey: .hostVersion)
        do {
            hostVersion = try SemanticVersion(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .hostVersion, in: container, debugDescription: "\(error)")
        }
        func names(_ key: CodingKeys, scheme: Bool) throws -> Set<String> {
            var names = Set<String>()
            for (index, name) in try container.decode([String].self, forKey: key).enumerated() {
                let problem =
                    (scheme ? Self.schemeProblem(name) : Self.targetProblem(name))
                    ?? (names.insert(name).inserted ? nil : "\(MessageText.quoted(name)) is listed twice")
                if let problem {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container, debugDescription: "[\(index)]: \(problem)")
                }
            }
            return names
        }
        pages = try names(.pages, scheme: false)
        tasks = try names(.tasks, scheme: false)
        dispatchers = try names(.dispatchers, scheme: true)
    }
}
