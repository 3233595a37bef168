import Foundation
public import Junction
public import JunctionCore

extension AppCapabilities {
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
        let hostVersion: SemanticVersion
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
                        at: object.path(of: key) + "[\(index)]", "\(MessageText.quoted(name)) is listed twice")
                }
            }
            return names
        }
        let pages = try names("pages", scheme: false)
        let tasks = try names("tasks", scheme: false)
        let dispatchers = try names("dispatchers", scheme: true)
        try object.finish()
        self.init(hostVersion: hostVersion, pages: pages, tasks: tasks, dispatchers: dispatchers)
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
}
