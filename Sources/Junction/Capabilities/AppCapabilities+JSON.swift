import Foundation
public import JunctionCore

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

    /// Reads a capabilities document strictly: strict JSON (no duplicate keys, comments or
    /// trailing commas) of at most ``maximumJSONBytes``, every member present with its type,
    /// no unknown member, no name empty, longer than ``maximumNameBytes`` or listed twice,
    /// schemes in lower case, and a ``formatVersion`` this version of Junction knows.
    /// - Parameters:
    ///   - bytes: The JSON, UTF-8.
    ///   - file: The name errors give the document.
    /// - Throws: `CanonicalJSONError` naming the file and the member: `app-6.0.json:
    ///   pages[3]: expected text, found 12`.
    public init(json bytes: [UInt8], file: String = "capabilities.json") throws(CanonicalJSONError) {
        let limits = CanonicalJSONLimits(
            maximumBytes: Self.maximumJSONBytes, maximumDepth: 2, maximumStringBytes: Self.maximumNameBytes,
            maximumNumberLength: 20)
        var object = try CanonicalJSONObject(
            try CanonicalJSON.decode(bytes, file: file, limits: limits), at: "", file: file,
            what: "the capabilities of an app")
        let format = try object.requiredInt("format_version")
        guard format == Self.formatVersion else {
            throw object.error(
                "format_version",
                format > Self.formatVersion
                    ? "\(format) is newer than this Junction reads (\(Self.formatVersion)); update junction"
                    : "\(format) is no format; this Junction reads \(Self.formatVersion)")
        }
        let text = try object.requiredString("host_version")
        do {
            hostVersion = try SemanticVersion(parsing: text)
        } catch {
            throw object.error("host_version", "\(error)")
        }
        func names(_ key: String, scheme: Bool) throws(CanonicalJSONError) -> Set<String> {
            guard let list = try object.strings(key) else { throw object.error(at: "", "missing \"\(key)\"") }
            var names = Set<String>()
            for (index, name) in list.enumerated() {
                if let problem = scheme ? Self.schemeProblem(name) : Self.targetProblem(name) {
                    throw object.error(at: object.path(of: key) + "[\(index)]", problem)
                }
                guard names.insert(name).inserted else {
                    throw object.error(
                        at: object.path(of: key) + "[\(index)]", "\(FindingLimits.quoted(name)) is listed twice")
                }
            }
            return names
        }
        pages = try names("pages", scheme: false)
        tasks = try names("tasks", scheme: false)
        dispatchers = try names("dispatchers", scheme: true)
        try object.finish()
    }

    /// Reads a capabilities file as ``init(json:file:)`` reads its text; no more than
    /// ``maximumJSONBytes`` and one byte are read from it.
    /// - Parameter path: The file.
    /// - Throws: `CanonicalJSONError` naming the file: it cannot be read, is too long, or
    ///   is not a capabilities document.
    public init(contentsOfFile path: String) throws(CanonicalJSONError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CanonicalJSONError(file: path, place: "", message: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw CanonicalJSONError(file: path, place: "", message: "a folder, not a capabilities file")
        }
        let bytes: [UInt8]
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            bytes = Array(try handle.read(upToCount: Self.maximumJSONBytes + 1) ?? Data())
        } catch {
            throw CanonicalJSONError(file: path, place: "", message: "cannot be read: \(error.localizedDescription)")
        }
        guard bytes.count <= Self.maximumJSONBytes else {
            throw CanonicalJSONError(
                file: path, place: "",
                message: "the file is longer than \(Self.maximumJSONBytes) bytes, the most a capabilities file has")
        }
        try self.init(json: bytes, file: path)
    }

    // MARK: - Names

    /// Why `name` is no target name, or `nil`.
    static func targetProblem(_ name: String) -> String? {
        name.isEmpty ? "an empty name; a page or task has a name" : nil
    }

    /// Why `name` is no lower-case scheme (RFC 3986: a letter, then letters, digits, `+`,
    /// `-`, `.`), or `nil`.
    static func schemeProblem(_ name: String) -> String? {
        let lower = UInt8(ascii: "a")...UInt8(ascii: "z")
        let valid =
            name.utf8.first.map(lower.contains) == true
            && name.utf8.allSatisfy { lower.contains($0) || Bytes.isDigit($0) || "+-.".utf8.contains($0) }
        return valid
            ? nil
            : "\(FindingLimits.quoted(name)) is not a scheme in lower case (a letter, then letters, digits, \"+\", \"-\" or \".\")"
    }

    /// `name` as a JSON string.
    static func quoted(_ name: String) -> String {
        // A Swift string is always UTF-8 and never nested: encoding it cannot fail.
        String(decoding: (try? CanonicalJSON.encode(.string(name))) ?? Array("\"\"".utf8), as: UTF8.self)
    }
}
