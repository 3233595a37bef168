package import JunctionCore

extension ContextSchema {
    /// Other schema languages' names for the types, for "did you mean".
    private static let synonyms = [
        "integer": "int", "boolean": "bool", "float": "number", "double": "number", "str": "string",
        "text": "string", "semver": "version",
    ]

    /// Lua's reserved words: `ctx.end` does not compile, so no key may be one.
    private static let luaKeywords: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local",
        "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]

    /// Reads the manifest's `context:`, reporting each mistake at its place.
    /// - Parameters:
    ///   - node: The value of `context:`.
    ///   - yaml: The manifest's reader, which collects the diagnostics.
    /// - Returns: The schema; when a diagnostic was added, part of it.
    package static func read(_ node: YAMLNode, _ yaml: inout YAMLReader) -> ContextSchema {
        guard let map = node.mapping else {
            yaml.error(
                "context must be a mapping of context keys to their types, such as app_version: version", node.mark)
            return [:]
        }
        var keys = 0
        return readTable(map, prefix: "", depth: 1, keys: &keys, &yaml)
    }

    private static func readTable(
        _ map: [YAMLNode.Pair], prefix: String, depth: Int, keys: inout Int, _ yaml: inout YAMLReader
    ) -> ContextSchema {
        var fields: [Field] = []
        for (key, value) in yaml.pairs(of: map) {
            keys += 1
            guard keys <= maximumKeys else {
                if keys == maximumKeys + 1 {
                    yaml.error(
                        "the context schema declares more than \(maximumKeys) keys; declare the ones rules read, and any for free-form data",
                        key.mark)
                }
                break
            }
            guard let name = key.text, isName(name, key.mark, prefix: prefix, &yaml) else { continue }
            if let type = readType(value, path: prefix + name, depth: depth, keys: &keys, &yaml) {
                fields.append(Field(name, type))
            }
        }
        return ContextSchema(fields)
    }

    private static func readType(
        _ node: YAMLNode, path: String, depth: Int, keys: inout Int, _ yaml: inout YAMLReader
    ) -> ContextType? {
        let forms = "string, int, number, bool, version, any, [TYPE] for a list, or { key: TYPE } for a table"
        switch node.content {
        case .scalar(let scalar):
            if let type = ContextType(name: scalar.text) { return type }
            if scalar.isPlain, YAMLReader.plainScalar(scalar.text) == .nil {
                yaml.error("context key \(path) has no type; give one: \(forms)", node.mark)
                return nil
            }
            let suggestion =
                synonyms[scalar.text]
                ?? NearestName.nearest(to: scalar.text, among: ContextType.names + synonyms.keys.sorted()).map {
                    synonyms[$0] ?? $0
                }
            yaml.error(
                "context key \(path): unknown type \"\(shown(scalar.text))\"; use \(forms)"
                    + (suggestion.map { "; did you mean \"\($0)\"?" } ?? ""), node.mark)
            return nil
        case .sequence(let items):
            guard items.count == 1 else {
                yaml.error(
                    "context key \(path): a list type has exactly one item, the type of every item, such as [string]",
                    node.mark)
                return nil
            }
            guard depth < maximumDepth else {
                tooDeep(path, node.mark, &yaml)
                return nil
            }
            return readType(items[0], path: path + "[]", depth: depth + 1, keys: &keys, &yaml).map { .list($0) }
        case .mapping(let map):
            guard !map.isEmpty else {
                yaml.error(
                    "context key \(path): an empty table declares no keys; declare them ({ id: int }) or write any",
                    node.mark)
                return nil
            }
            guard depth < maximumDepth else {
                tooDeep(path, node.mark, &yaml)
                return nil
            }
            return .table(readTable(map, prefix: path + ".", depth: depth + 1, keys: &keys, &yaml))
        }
    }

    private static func tooDeep(_ path: String, _ mark: YAMLMark, _ yaml: inout YAMLReader) {
        yaml.error(
            "context key \(shown(path)) nests deeper than \(maximumDepth) levels of tables and lists; flatten it, or write any",
            mark)
    }

    /// Whether `name` is a key rules can write as `ctx.NAME`; a diagnostic when not.
    private static func isName(_ name: String, _ mark: YAMLMark, prefix: String, _ yaml: inout YAMLReader) -> Bool {
        let bytes = name.utf8
        let isWord =
            !bytes.isEmpty && !Bytes.isDigit(bytes.first!)
            && bytes.allSatisfy { Bytes.isAlpha($0) || Bytes.isDigit($0) || $0 == UInt8(ascii: "_") }
        if !isWord {
            yaml.error(
                "context key \"\(shown(prefix + name))\" must be a name rules can write as ctx.NAME: letters, digits and \"_\", not starting with a digit",
                mark)
        } else if bytes.count > 64 {
            yaml.error("context key \"\(shown(prefix + name))\" is longer than 64 characters", mark)
        } else if luaKeywords.contains(name) {
            yaml.error("context key \"\(prefix + name)\" is a Lua keyword: rules could not write ctx.\(name)", mark)
        } else {
            return true
        }
        return false
    }
}
