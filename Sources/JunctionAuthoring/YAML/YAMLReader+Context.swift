package import JunctionCore

extension YAMLReader {
    /// A rule test's `context:`, typed by the manifest's schema when it has one (else as
    /// ``ruleValue(_:_:requireTable:)`` types YAML): the schema decides what a plain
    /// scalar is — `6.0` under a `version` key is the text `"6.0"`, under `number` the
    /// float — while quoted text stays text and fits only `string` and `version` keys.
    /// An undeclared key is an error at the key, with the declared key it likely meant.
    /// - Parameters:
    ///   - node: The value of `context:`.
    ///   - schema: The manifest's `context:`, if it declares one.
    ///   - allowingNull: Whether a top-level key written as null stays, as `.nil` (a test's
    ///     `then:` removes it so), rather than being absent.
    /// - Returns: The context, a table.
    package mutating func contextValue(_ node: YAMLNode, schema: ContextSchema?, allowingNull: Bool = false)
        -> RuleValue
    {
        let value: RuleValue
        if let schema {
            guard let map = node.mapping else {
                error("context must be a mapping of names to values", node.mark)
                return [:]
            }
            value = .table(contextTable(map, schema, prefix: ""))
        } else {
            value = ruleValue(node, "context", requireTable: true)
        }
        // A test's `then: { context: { user: null } }` removes a key: keep its null.
        guard allowingNull, case .table(var fields) = value, let map = node.mapping else { return value }
        for (key, item) in map {
            if let name = key.text, let scalar = item.scalar, scalar.isPlain,
                ["null", "Null", "NULL", "~", ""].contains(scalar.text)
            {
                fields[name] = .nil
            }
        }
        return .table(fields)
    }

    /// A context value at `path` (`user.id`) typed by its declared type; a mismatch is an
    /// error at the node. `junction eval --context` types its values with this too.
    /// - Parameters:
    ///   - node: The value as written.
    ///   - type: The declared type.
    ///   - path: Where the value is, for messages.
    /// - Returns: The value; `.nil` for YAML's null (absent) and after an error.
    package mutating func contextValue(_ node: YAMLNode, _ type: ContextType, path: String) -> RuleValue {
        switch (type, node.content) {
        case (.any, _):
            return ruleValue(node, "context." + path, requireTable: false)
        case (_, .scalar(let scalar)):
            return contextScalar(scalar, type, path: path, node.mark)
        case (.list(let item), .sequence(let items)):
            var values: [RuleValue] = []
            for (index, element) in items.enumerated() where visit() {
                let value = contextValue(element, item, path: "\(path)[\(index + 1)]")
                if case .nil = value { continue }  // a Lua list cannot hold nil; the error is reported
                values.append(value)
            }
            return .array(values)
        case (.table(let schema), .mapping(let map)):
            return .table(contextTable(map, schema, prefix: path + "."))
        case (_, .sequence):
            mismatch(path, type, found: "a list", node.mark)
        case (_, .mapping):
            mismatch(path, type, found: "a table", node.mark)
        }
        return .nil
    }

    private mutating func contextTable(_ map: [YAMLNode.Pair], _ schema: ContextSchema, prefix: String) -> [String:
        RuleValue]
    {
        var fields: [String: RuleValue] = [:]
        for (key, value) in pairs(of: map) {
            guard let name = key.text else {
                error("a context key must be text", key.mark)
                continue
            }
            guard let type = schema[name] else {
                error(schema.undeclaredMessage(name, prefix: prefix, budget: &suggestionBudget), key.mark)
                continue
            }
            let typed = contextValue(value, type, path: prefix + name)
            if case .nil = typed { continue }  // absent: a Lua table cannot hold nil
            fields[name] = typed
        }
        return fields
    }

    /// A scalar read as `type`. A core tag (`!!str`, `!!int` …) types it as YAML would,
    /// and that value must fit; otherwise null is absent, quoted text is text, and a
    /// plain scalar is read as the declared type.
    private mutating func contextScalar(_ scalar: YAMLScalar, _ type: ContextType, path: String, _ mark: YAMLMark)
        -> RuleValue
    {
        let shown = ContextSchema.shown(scalar.text)
        let written = scalar.isPlain ? shown : "the text \"\(shown)\""
        let core = "tag:yaml.org,2002:"
        if let tag = scalar.tag, tag.hasPrefix(core) {
            let errors = diagnostics.count
            let value = ruleValue(YAMLNode(.scalar(scalar), at: mark), "context." + path, requireTable: false)
            guard diagnostics.count == errors else { return .nil }  // the tag did not fit: reported
            if type.admits(value) { return value }
            mismatch(path, type, found: "!!\(tag.dropFirst(core.count)) \(shown)", mark)
            return .nil
        }
        if scalar.isPlain, case .nil = Self.plainScalar(scalar.text) { return .nil }
        let value: RuleValue
        switch type {
        case .string, .version:
            value = .string(scalar.text)
        case .int, .number, .bool:
            value = scalar.isPlain ? Self.plainScalar(scalar.text) : .string(scalar.text)
        case .any, .list, .table:
            value = .string(scalar.text)
        }
        if type.admits(value) { return value }
        var hint = ""
        let unquoted = Self.plainScalar(scalar.text)
        if !scalar.isPlain, unquoted != .nil, type.admits(unquoted) {
            hint = "; write \(ContextSchema.shown(scalar.text)) without quotes"
        } else if type == .version {
            hint = "; a version reads like 5.2.0"
        } else if type == .bool {
            hint = "; write true or false"
        } else if case .list = type {
            hint = "; write [\(ContextSchema.shown(scalar.text))]"
        }
        mismatch(path, type, found: written, mark, hint: hint)
        return .nil
    }

    private mutating func mismatch(
        _ path: String, _ type: ContextType, found: String, _ mark: YAMLMark, hint: String = ""
    ) {
        var declared = type.shortName
        if case .table(let schema) = type {
            declared += " (keys " + schema.fields.map(\.name).joined(separator: ", ") + ")"
        }
        error("context \(path) is declared \(declared), not \(found)\(hint)", mark)
    }
}
