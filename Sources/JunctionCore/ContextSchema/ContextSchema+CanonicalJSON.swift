extension ContextSchema {
    /// The schema as canonical JSON's value: an array, so the keys keep their order —
    /// `[{"name":"user","type":{"table":[{"name":"id","type":"int"}]}}]`; a list type is
    /// `{"list":TYPE}`.
    package var canonicalJSONValue: RuleValue {
        .array(fields.map { .table(["name": .string($0.name), "type": Self.value(of: $0.type)]) })
    }

    private static func value(of type: ContextType) -> RuleValue {
        switch type {
        case .list(let item): .table(["list": value(of: item)])
        case .table(let schema): .table(["table": schema.canonicalJSONValue])
        default: .string(type.description)
        }
    }

    /// Reads ``canonicalJSONValue`` back, with the bounds the manifest's YAML has: at most
    /// ``maximumDepth`` levels and ``maximumKeys`` keys, each key once in its table.
    /// - Parameters:
    ///   - value: The decoded JSON.
    ///   - path: Its path, for errors.
    ///   - file: The document, for errors.
    /// - Returns: The schema.
    /// - Throws: `CanonicalJSONError` at the path of the first problem.
    package init(canonicalJSON value: RuleValue, at path: String, file: String) throws(CanonicalJSONError) {
        var keys = 0
        self = try Self.readTable(value, at: path, depth: 1, keys: &keys, file: file)
    }

    private static func readTable(
        _ value: RuleValue, at path: String, depth: Int, keys: inout Int, file: String
    ) throws(CanonicalJSONError) -> ContextSchema {
        guard case .array(let items) = value else {
            throw CanonicalJSONObject.mismatch(value, expected: "an array of context keys", at: path, file: file)
        }
        var fields: [Field] = []
        var names: Set<String> = []
        for (index, item) in items.enumerated() {
            keys += 1
            let itemPath = path + "[\(index)]"
            guard keys <= maximumKeys else {
                throw CanonicalJSONError(
                    file: file, place: itemPath, message: "the context schema declares more than \(maximumKeys) keys")
            }
            var object = try CanonicalJSONObject(item, at: itemPath, file: file, what: "a context key")
            let name = try object.requiredString("name")
            guard !name.isEmpty, names.insert(name).inserted else {
                throw object.error("name", "context key \"\(shown(name))\" is empty or declared twice")
            }
            let type = try readType(
                try object.required("type"), at: object.path(of: "type"), depth: depth, keys: &keys, file: file)
            try object.finish()
            fields.append(Field(name, type))
        }
        return ContextSchema(fields)
    }

    private static func readType(
        _ value: RuleValue, at path: String, depth: Int, keys: inout Int, file: String
    ) throws(CanonicalJSONError) -> ContextType {
        if case .string(let name) = value {
            guard let type = ContextType(name: name) else {
                throw CanonicalJSONError(
                    file: file, place: path,
                    message: "unknown type \"\(shown(name))\"; expected one of "
                        + ContextType.names.joined(separator: ", ") + ", {\"list\":TYPE} or {\"table\":[…]}")
            }
            return type
        }
        var object = try CanonicalJSONObject(value, at: path, file: file, what: "a type")
        guard depth < maximumDepth else {
            throw object.error(at: path, "nests deeper than \(maximumDepth) levels of tables and lists")
        }
        let type: ContextType
        if let item = object.value("list") {
            type = .list(try readType(item, at: object.path(of: "list"), depth: depth + 1, keys: &keys, file: file))
        } else if let table = object.value("table") {
            let schema = try readTable(table, at: object.path(of: "table"), depth: depth + 1, keys: &keys, file: file)
            guard !schema.fields.isEmpty else { throw object.error("table", "an empty table declares no keys") }
            type = .table(schema)
        } else {
            throw object.error(at: path, "a type object has \"list\" or \"table\"")
        }
        try object.finish()
        return type
    }
}
