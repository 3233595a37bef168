internal import Foundation
import JunctionCore

/// Reads a route table from YAML or JSON (JSON is read as the YAML it is), reporting
/// every problem as `FILE:LINE:COLUMN` with what to do.
struct RouteTableLoader {
    private var yaml: YAMLReader

    init(file: String) {
        yaml = YAMLReader(file: file, document: "a route table")
    }

    /// Every problem found, in the order found.
    var diagnostics: [Diagnostic] { yaml.diagnostics }

    /// Reads options and routes; problems go to `diagnostics`.
    mutating func load(text: String) -> (options: RouteTableOptions, routes: [Route]) {
        var options = RouteTableOptions()
        var routes: [Route] = []
        let root = yaml.compose(text)
        guard let root, let document = yaml.mapping(root, "the route table") else {
            if root == nil, yaml.diagnostics.isEmpty {
                yaml.error("the file is empty; a route table has \"routes:\"", nil)
            }
            return (options, routes)
        }
        var sawRoutes = false
        for (key, value) in yaml.pairs(of: document) {
            switch YAMLReader.keyText(key) {
            case "options":
                options = readOptions(value)
            case "routes":
                sawRoutes = true
                guard let list = yaml.sequence(value, "routes") else { continue }
                for item in list where yaml.visit() {
                    if let route = readRoute(item) { routes.append(route) }
                }
            default:
                yaml.unknownKey(key, allowed: ["options", "routes"], in: "the route table")
            }
        }
        if !sawRoutes { yaml.error("missing \"routes:\" — the list of routes", root.mark) }
        return (options, routes)
    }

    // MARK: - Sections

    private mutating func readOptions(_ node: YAMLNode) -> RouteTableOptions {
        var options = RouteTableOptions()
        guard let map = yaml.mapping(node, "options") else { return options }
        for (key, value) in yaml.pairs(of: map) {
            switch YAMLReader.keyText(key) {
            case "hostAsPath":
                let text = value.scalar?.text ?? ""
                if let mode = HostAsPath(rawValue: text) {
                    options.hostAsPath = mode
                } else {
                    yaml.error("hostAsPath must be one of auto, always, never (got \"\(text)\")", value.mark)
                }
            case "plusAsSpace":
                if let flag = yaml.bool(value, "plusAsSpace") { options.plusAsSpace = flag }
            case "caseSensitive":
                if let flag = yaml.bool(value, "caseSensitive") { options.caseSensitive = flag }
            case "dispatchedSchemes":
                options.dispatchedSchemes = Set(yaml.strings(value, "dispatchedSchemes").map { $0.lowercased() })
            default:
                yaml.unknownKey(
                    key, allowed: ["hostAsPath", "plusAsSpace", "caseSensitive", "dispatchedSchemes"], in: "options")
            }
        }
        return options
    }

    private mutating func readRoute(_ node: YAMLNode) -> Route? {
        guard let map = yaml.mapping(node, "a route") else { return nil }
        var name: String?
        var pattern: String?
        var patternLocation: SourceLocation?
        var route = Route(name: "", pattern: "")
        var target: String?
        for (key, value) in yaml.pairs(of: map) {
            switch YAMLReader.keyText(key) {
            case "name": name = yaml.string(value, "name")
            case "pattern":
                pattern = yaml.string(value, "pattern")
                patternLocation = yaml.location(value.mark)
                if let style = value.scalar?.style, style == .singleQuoted || style == .doubleQuoted {
                    patternLocation?.column += 1
                }
            case "target": target = yaml.string(value, "target")
            case "priority": if let number = yaml.int(value, "priority") { route.priority = number }
            case "groups": route.groups = yaml.strings(value, "groups")
            case "exported": if let flag = yaml.bool(value, "exported") { route.isExported = flag }
            case "description": route.description = yaml.string(value, "description")
            case "params": route.parameters = readParameters(value, "params")
            case "returns": route.returns = readParameters(value, "returns")
            case "meta":
                if case .table(let fields) = yaml.ruleValue(value, "meta", requireTable: true) { route.meta = fields }
            case "params_strict": if let flag = yaml.bool(value, "params_strict") { route.isParamsStrict = flag }
            case "launch":
                if let text = yaml.string(value, "launch") {
                    if let mode = LaunchMode(rawValue: text) {
                        route.launchMode = mode
                    } else {
                        yaml.error(
                            "launch: \"\(text)\" is no launch mode; use one of "
                                + LaunchMode.allCases.map(\.rawValue).joined(separator: ", "), value.mark)
                    }
                }
            default:
                yaml.unknownKey(
                    key,
                    allowed: [
                        "name", "pattern", "target", "priority", "groups", "exported", "description", "params",
                        "returns", "meta", "launch", "params_strict",
                    ], in: "a route")
            }
        }
        guard let name else {
            yaml.error("this route has no \"name:\"; every route needs a unique name", node.mark)
            return nil
        }
        guard let pattern else {
            yaml.error("route \"\(name)\" has no \"pattern:\"", node.mark)
            return nil
        }
        route.name = name
        route.pattern = pattern
        route.target = target ?? name
        route.location = yaml.location(node.mark)
        route.patternLocation = patternLocation
        return route
    }

    private mutating func readParameters(_ node: YAMLNode, _ what: String) -> [ParameterDeclaration] {
        guard let map = yaml.mapping(node, what) else { return [] }
        var declarations: [ParameterDeclaration] = []
        for (key, value) in yaml.pairs(of: map) {
            guard let name = key.scalar?.text, !name.isEmpty else {
                yaml.error("a parameter name must be text", key.mark)
                continue
            }
            var declaration = ParameterDeclaration(name)
            if let shorthand = value.scalar {
                // `id: int` is short for `id: { type: int }`.
                guard let type = parameterType(shorthand.text, value.mark) else { continue }
                declaration.type = type
                declarations.append(declaration)
                continue
            }
            guard let fields = yaml.mapping(value, "parameter \"\(name)\"") else { continue }
            var defaultNode: YAMLNode?
            for (field, fieldValue) in yaml.pairs(of: fields) {
                switch YAMLReader.keyText(field) {
                case "type":
                    if let type = parameterType(fieldValue.scalar?.text ?? "", fieldValue.mark) {
                        declaration.type = type
                    }
                case "required": if let flag = yaml.bool(fieldValue, "required") { declaration.isRequired = flag }
                case "default": defaultNode = fieldValue
                case "description": declaration.description = yaml.string(fieldValue, "description")
                default:
                    yaml.unknownKey(
                        field, allowed: ["type", "required", "default", "description"], in: "parameter \"\(name)\"")
                }
            }
            if let defaultNode {
                let text = defaultNode.scalar?.text ?? ""
                if defaultNode.scalar == nil {
                    yaml.error("default of \"\(name)\" must be a single value", defaultNode.mark)
                } else if declaration.isRequired {
                    yaml.error(
                        "parameter \"\(name)\" is required and has a default; a default makes it optional — drop one",
                        defaultNode.mark)
                } else if let value = declaration.type.convert(text) {
                    declaration.defaultValue = value
                } else {
                    yaml.error(
                        "default \"\(text)\" of \"\(name)\" is not \(declaration.type.rawValue)", defaultNode.mark)
                }
            }
            declarations.append(declaration)
        }
        return declarations
    }

    private mutating func parameterType(_ text: String, _ mark: YAMLMark?) -> ParameterType? {
        if let type = ParameterType(rawValue: text) { return type }
        yaml.error(
            "unknown parameter type \"\(text)\"; use one of \(ParameterType.allCases.map(\.rawValue).joined(separator: ", "))",
            mark)
        return nil
    }
}
