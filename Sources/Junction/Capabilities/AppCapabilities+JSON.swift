import JunctionCore

extension AppCapabilities {
    /// The most bytes a capabilities document may have: 1 MiB, room for tens of thousands
    /// of targets. Longer is refused before any of it is read.
    public static let maximumJSONBytes = 1 << 20
    /// The most bytes one name (a target or a scheme) may have.
    public static let maximumNameBytes = 1024

    /// The JSON document described at ``AppCapabilities``: the same capabilities always give
    /// the same text, so a file of it changes by one line when one target does.
    /// - Returns: The text, ending with a newline.
    public func json() -> String {
        func list(_ names: Set<String>) -> String {
            guard !names.isEmpty else { return "[]" }
            let items = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { "    " + Self.quoted($0) }
            return "[\n" + items.joined(separator: ",\n") + "\n  ]"
        }
        return """
            {
              "dispatchers": \(list(dispatchers)),
              "format_version": \(Self.formatVersion),
              "host_version": \(Self.quoted(hostVersion.description)),
              "pages": \(list(pages)),
              "tasks": \(list(tasks))
            }

            """
    }

    // MARK: - Names

    /// Why `name` is no target name, or `nil`.
    package static func targetProblem(_ name: String) -> String? {
        name.isEmpty ? "an empty name; a page or task has a name" : nil
    }

    /// Why `name` is no lower-case scheme (RFC 3986: a letter, then letters, digits, `+`,
    /// `-`, `.`), or `nil`.
    package static func schemeProblem(_ name: String) -> String? {
        let lower = UInt8(ascii: "a")...UInt8(ascii: "z")
        let valid =
            name.utf8.first.map(lower.contains) == true
            && name.utf8.allSatisfy { lower.contains($0) || Bytes.isDigit($0) || "+-.".utf8.contains($0) }
        return valid
            ? nil
            : "\(MessageText.quoted(name)) is not a scheme in lower case (a letter, then letters, digits, \"+\", \"-\" or \".\")"
    }

    /// `name` as a JSON string.
    package static func quoted(_ name: String) -> String {
        // A Swift string is always UTF-8 and never nested: encoding it cannot fail.
        String(decoding: (try? CanonicalJSON.encode(.string(name))) ?? Array("\"\"".utf8), as: UTF8.self)
    }
}
