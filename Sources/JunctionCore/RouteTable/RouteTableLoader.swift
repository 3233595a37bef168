internal import Foundation
internal import Yams

/// Reads a route table from YAML or JSON (JSON is read as the YAML it is), reporting
/// every problem as `FILE:LINE:COLUMN` with what to do.
struct RouteTableLoader {
    /// Files larger than this are refused: a route table is configuration, not data.
    static let maximumFileSize = 16 << 20
    /// YAML aliases can make a small file expand enormously ("billion laughs"); the
    /// loader refuses a document that expands beyond this many nodes.
    static let maximumNodes = 1_000_000

    let file: String
    private(set) var diagnostics: [Diagnostic] = []
    private var nodesVisited = 0

    init(file: String) {
        self.file = file
    }

    /// Reads options and routes; problems go to `diagnostics`.
    mutating func load(text: String) -> (options: RouteTableOptions, routes: [Route]) {
        var options = RouteTableOptions()
        var routes: [Route] = []
        guard text.utf8.count <= Self.maximumFileSize else {
            error("file is larger than \(Self.maximumFileSize >> 20) MiB; a route table should be far smaller", nil)
            return (options, routes)
        }
        if let (line, column) = YAMLAliasScanner.firstAlias(in: text) {
            diagnostics.append(Diagnostic(.error, "YAML aliases (\"*name\") are not allowed in a route table; write the value out (and quote text that starts with \"*\")", at: SourceLocation(file: file, line: line, column: column)))
            return (options, routes)
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let yaml as YamlError {
            reportSyntax(yaml)
            return (options, routes)
        } catch {
            self.error("cannot read as YAML or JSON: \(error)", nil)
            return (options, routes)
        }
        guard let root, let document = mapping(root, "the route table") else {
            if root == nil { error("the file is empty; a route table has \"routes:\"", nil) }
            return (options, routes)
        }
        var sawRoutes = false
        for (key, value) in pairs(of: document) {
            switch key.string {
            case "options":
                options = readOptions(value)
            case "routes":
                sawRoutes = true
                guard let list = sequence(value, "routes") else { continue }
                for item in list where visit() {
                    if let route = readRoute(item) { routes.append(route) }
                }
            default:
                unknownKey(key, allowed: ["options", "routes"], in: "the route table")
            }
        }
        if !sawRoutes { error("missing \"routes:\" — the list of routes", root.mark) }
        return (options, routes)
    }

    // MARK: - Sections

    private mutating func readOptions(_ node: Node) -> RouteTableOptions {
        var options = RouteTableOptions()
        guard let map = mapping(node, "options") else { return options }
        for (key, value) in pairs(of: map) {
            switch key.string {
            case "hostAsPath":
                let text = value.scalar?.string ?? ""
                if let mode = HostAsPath(rawValue: text) {
                    options.hostAsPath = mode
                } else {
                    error("hostAsPath must be one of auto, always, never (got \"\(text)\")", value.mark)
                }
            case "plusAsSpace":
                if let flag = bool(value, "plusAsSpace") { options.plusAsSpace = flag }
            case "caseSensitive":
                if let flag = bool(value, "caseSensitive") { options.caseSensitive = flag }
            default:
                unknownKey(key, allowed: ["hostAsPath", "plusAsSpace", "caseSensitive"], in: "options")
            }
        }
        return options
    }

    private mutating func readRoute(_ node: Node) -> Route? {
        guard let map = mapping(node, "a route") else { return nil }
        var name: String?
        var pattern: String?
        var patternLocation: SourceLocation?
        var route = Route(name: "", pattern: "")
        var target: String?
        for (key, value) in pairs(of: map) {
            switch key.string {
            case "name": name = string(value, "name")
            case "pattern":
                pattern = string(value, "pattern")
                patternLocation = location(value.mark)
                if let style = value.scalar?.style, style == .singleQuoted || style == .doubleQuoted {
                    patternLocation?.column += 1
                }
            case "target": target = string(value, "target")
            case "priority": if let number = int(value, "priority") { route.priority = number }
            case "groups": route.groups = strings(value, "groups")
            case "exported": if let flag = bool(value, "exported") { route.isExported = flag }
            case "description": route.description = string(value, "description")
            case "params": route.parameters = readParameters(value, "params")
            case "returns": route.returns = readParameters(value, "returns")
            default:
                unknownKey(key, allowed: ["name", "pattern", "target", "priority", "groups", "exported", "description", "params", "returns"], in: "a route")
            }
        }
        guard let name else {
            error("this route has no \"name:\"; every route needs a unique name", node.mark)
            return nil
        }
        guard let pattern else {
            error("route \"\(name)\" has no \"pattern:\"", node.mark)
            return nil
        }
        route.name = name
        route.pattern = pattern
        route.target = target ?? name
        route.location = location(node.mark)
        route.patternLocation = patternLocation
        return route
    }

    private mutating func readParameters(_ node: Node, _ what: String) -> [ParameterDeclaration] {
        guard let map = mapping(node, what) else { return [] }
        var declarations: [ParameterDeclaration] = []
        for (key, value) in pairs(of: map) {
            guard let name = key.scalar?.string, !name.isEmpty else {
                error("a parameter name must be text", key.mark)
                continue
            }
            var declaration = ParameterDeclaration(name)
            if let shorthand = value.scalar {
                // `id: int` is short for `id: { type: int }`.
                guard let type = parameterType(shorthand.string, value.mark) else { continue }
                declaration.type = type
                declarations.append(declaration)
                continue
            }
            guard let fields = mapping(value, "parameter \"\(name)\"") else { continue }
            var defaultNode: Node?
            for (field, fieldValue) in pairs(of: fields) {
                switch field.string {
                case "type":
                    if let type = parameterType(fieldValue.scalar?.string ?? "", fieldValue.mark) { declaration.type = type }
                case "required": if let flag = bool(fieldValue, "required") { declaration.isRequired = flag }
                case "default": defaultNode = fieldValue
                case "description": declaration.description = string(fieldValue, "description")
                default:
                    unknownKey(field, allowed: ["type", "required", "default", "description"], in: "parameter \"\(name)\"")
                }
            }
            if let defaultNode {
                let text = defaultNode.scalar?.string ?? ""
                if defaultNode.scalar == nil {
                    error("default of \"\(name)\" must be a single value", defaultNode.mark)
                } else if declaration.isRequired {
                    error("parameter \"\(name)\" is required and has a default; a default makes it optional — drop one", defaultNode.mark)
                } else if let value = declaration.type.convert(text) {
                    declaration.defaultValue = value
                } else {
                    error("default \"\(text)\" of \"\(name)\" is not \(declaration.type.rawValue)", defaultNode.mark)
                }
            }
            declarations.append(declaration)
        }
        return declarations
    }

    // MARK: - Node helpers

    private mutating func visit() -> Bool {
        nodesVisited += 1
        if nodesVisited == Self.maximumNodes {
            error("the document expands to more than \(Self.maximumNodes) nodes (YAML aliases?); a route table should be far smaller", nil)
        }
        return nodesVisited < Self.maximumNodes
    }

    /// The pairs of a mapping (Yams has refused duplicate keys already), counted
    /// against the node budget.
    private mutating func pairs(of map: Node.Mapping) -> [(key: Node, value: Node)] {
        var result: [(key: Node, value: Node)] = []
        for (key, value) in map where visit() {
            result.append((key, value))
        }
        return result
    }

    private mutating func mapping(_ node: Node, _ what: String) -> Node.Mapping? {
        if let map = node.mapping { return map }
        error("\(what) must be a mapping of keys to values", node.mark)
        return nil
    }

    private mutating func sequence(_ node: Node, _ what: String) -> Node.Sequence? {
        if let list = node.sequence { return list }
        error("\(what) must be a list (\"- …\" items)", node.mark)
        return nil
    }

    private mutating func string(_ node: Node, _ what: String) -> String? {
        if let scalar = node.scalar { return scalar.string }
        error("\(what) must be text", node.mark)
        return nil
    }

    private mutating func strings(_ node: Node, _ what: String) -> [String] {
        if let scalar = node.scalar { return [scalar.string] }
        guard let list = sequence(node, what) else { return [] }
        return list.compactMap { item in string(item, "each of \(what)") }
    }

    private mutating func int(_ node: Node, _ what: String) -> Int? {
        if let text = node.scalar?.string, let number = Int(text) { return number }
        error("\(what) must be an integer", node.mark)
        return nil
    }

    private mutating func bool(_ node: Node, _ what: String) -> Bool? {
        switch node.scalar?.string {
        case "true": return true
        case "false": return false
        default:
            error("\(what) must be true or false", node.mark)
            return nil
        }
    }

    private mutating func parameterType(_ text: String, _ mark: Mark?) -> ParameterType? {
        if let type = ParameterType(rawValue: text) { return type }
        error("unknown parameter type \"\(text)\"; use one of \(ParameterType.allCases.map(\.rawValue).joined(separator: ", "))", mark)
        return nil
    }

    private mutating func unknownKey(_ key: Node, allowed: [String], in what: String) {
        let text = key.scalar?.string ?? "(not text)"
        error("unknown key \"\(text)\" in \(what); expected one of \(allowed.joined(separator: ", "))", key.mark)
    }

    // MARK: - Reporting

    private func location(_ mark: Mark?) -> SourceLocation? {
        mark.map { SourceLocation(file: file, line: $0.line, column: $0.column) }
    }

    private mutating func error(_ message: String, _ mark: Mark?) {
        diagnostics.append(Diagnostic(.error, message, at: location(mark) ?? SourceLocation(file: file, line: 1, column: 1)))
    }

    private mutating func reportSyntax(_ yaml: YamlError) {
        switch yaml {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            let detail = context.map { "\(problem) \($0.text)" } ?? problem
            error("not valid YAML or JSON: \(detail)", mark)
        case let .reader(problem, offset, _, _):
            error("cannot read the file: \(problem)\(offset.map { " at byte \($0)" } ?? "")", nil)
        case let .duplicatedKeysInMapping(duplicates, context):
            let keys = duplicates.map { "\"\($0)\"" }.joined(separator: ", ")
            error("duplicate key \(keys) in this mapping; keep one", context.mark)
        default:
            error("not valid YAML or JSON: \(yaml)", nil)
        }
    }
}
