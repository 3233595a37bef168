extension SourceLocation {
    /// The location as canonical JSON's value, `"routes.yaml:12:5"`, its file relative to
    /// `directory` when it is inside it: an artifact names files as the bundle does, not
    /// as the builder's disk did.
    package func canonicalJSONValue(relativeTo directory: String?) -> RuleValue {
        var file = file
        if let directory {
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            if file.hasPrefix(prefix) { file.removeFirst(prefix.count) }
        }
        return .string("\(file):\(line):\(column)")
    }

    /// Reads ``canonicalJSONValue(relativeTo:)`` back, one location alone.
    package init(
        canonicalJSON value: RuleValue, at path: @autoclosure () -> String, file: String, directory: String?
    ) throws(CanonicalJSONError) {
        var fileNames = SourceFileNames()
        try self.init(canonicalJSON: value, at: path(), file: file, directory: directory, fileNames: &fileNames)
    }

    /// Reads ``canonicalJSONValue(relativeTo:)`` back — the line and column are the last
    /// two `:`-separated parts, so a file name may hold a colon — its file inside
    /// `directory` when given. `path` is only worked out for an error; `fileNames` keeps
    /// the file last read, so the locations of one file share one string.
    package init(
        canonicalJSON value: RuleValue, at path: @autoclosure () -> String, file: String, directory: String?,
        fileNames: inout SourceFileNames
    ) throws(CanonicalJSONError) {
        guard case .string(let text) = value else {
            throw CanonicalJSONObject.mismatch(value, expected: "a location, FILE:LINE:COLUMN", at: path(), file: file)
        }
        // The colons are found among the bytes: searching the characters costs grapheme breaking.
        let utf8 = text.utf8
        let columnColon = utf8.lastIndex(of: UInt8(ascii: ":"))
        let lineColon = columnColon.flatMap { utf8[..<$0].lastIndex(of: UInt8(ascii: ":")) }
        guard let columnColon, let lineColon,
            let line = Int(text[utf8.index(after: lineColon)..<columnColon]), line >= 1,
            let column = Int(text[utf8.index(after: columnColon)...]), column >= 1
        else {
            throw CanonicalJSONError(
                file: file, place: path(),
                message: "\"\(ContextSchema.shown(text))\" is not FILE:LINE:COLUMN with a line and a column from 1")
        }
        self.init(file: fileNames.path(of: text[..<lineColon], in: directory), line: line, column: column)
    }
}

/// The files named by the locations of one document, as paths: the routes of a table name
/// the same file one after another, and each location had made a string of its own — two
/// a route, a tenth of a loaded table's bytes. The file read last is kept and given again.
package struct SourceFileNames {
    private var last: (name: Substring, directory: String?, path: String)?

    /// No file read yet.
    package init() {}

    /// The path of file `name`, inside `directory` when given.
    mutating func path(of name: Substring, in directory: String?) -> String {
        // Byte for byte: two spellings of one name (NFC, NFD) are two files.
        if let last, last.name.utf8.elementsEqual(name.utf8), last.directory == directory { return last.path }
        let path = directory.map { ($0.hasSuffix("/") ? $0 : $0 + "/") + name } ?? String(name)
        last = (name, directory, path)
        return path
    }
}
