extension SourceLocation {
    /// The location as canonical JSON's value, `{"column":5,"file":"routes.yaml","line":12}`,
    /// its file relative to `directory` when it is inside it: an artifact names files as
    /// the bundle does, not as the builder's disk did.
    package func canonicalJSONValue(relativeTo directory: String?) -> RuleValue {
        var file = file
        if let directory {
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            if file.hasPrefix(prefix) { file.removeFirst(prefix.count) }
        }
        return .table(["file": .string(file), "line": .int(Int64(line)), "column": .int(Int64(column))])
    }

    /// Reads ``canonicalJSONValue(relativeTo:)`` back, its file inside `directory` when given.
    package init(canonicalJSON value: RuleValue, at path: String, file: String, directory: String?)
        throws(CanonicalJSONError)
    {
        var object = try CanonicalJSONObject(value, at: path, file: file, what: "a location")
        let name = try object.requiredString("file")
        guard let line = try object.int("line"), line >= 1, let column = try object.int("column"), column >= 1 else {
            throw object.error(at: path, "a location needs a line and a column, each at least 1")
        }
        try object.finish()
        let inside = directory.map { ($0.hasSuffix("/") ? $0 : $0 + "/") + name } ?? name
        self.init(file: inside, line: line, column: column)
    }
}
