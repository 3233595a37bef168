package import JunctionCore

/// Reads a YAML or JSON configuration document (JSON is read as the YAML it is) and
/// collects every problem as a `FILE:LINE:COLUMN` diagnostic. Shared by the loaders of
/// route tables and bundle manifests.
package struct YAMLReader {
    /// Files larger than this are refused: configuration, not data.
    package static let maximumFileSize = 16 << 20
    /// The most nodes a loader visits; a document that expands beyond it is refused.
    package static let maximumNodes = 1_000_000

    package let file: String
    /// What the document is, for messages: "a route table".
    package let document: String
    package private(set) var diagnostics: [Diagnostic] = []
    private var nodesVisited = 0
    /// What is left of ``ContextSchema/suggestionBudget`` for this document's "did you mean".
    package var suggestionBudget = ContextSchema.suggestionBudget

    package init(file: String, document: String) {
        self.file = file
        self.document = document
    }

    /// Parses `text`; `nil` (with a diagnostic, or for an empty document) when it cannot be read.
    package mutating func compose(_ text: String) -> YAMLNode? {
        guard text.utf8.count <= Self.maximumFileSize else {
            error("file is larger than \(Self.maximumFileSize >> 20) MiB; \(document) should be far smaller", nil)
            return nil
        }
        var composer = YAMLComposer(document: document, maximumNodes: Self.maximumNodes)
        let root = composer.compose(text)
        if let problem = composer.problem {
            error(problem.message, problem.mark)
            return nil
        }
        return root
    }

    package mutating func visit() -> Bool {
        visit(count: 1) == 1
    }

    /// Counts `count` nodes against the budget, as `count` calls of ``visit()`` would.
    /// - Returns: How many of them are within it.
    private mutating func visit(count: Int) -> Int {
        let before = nodesVisited
        nodesVisited += count
        if before < Self.maximumNodes, nodesVisited >= Self.maximumNodes {
            error(
                "the document expands to more than \(Self.maximumNodes) nodes; \(document) should be far smaller", nil)
        }
        return max(0, min(count, Self.maximumNodes - 1 - before))
    }

    /// The pairs of a mapping (the composer has refused duplicate keys already), counted
    /// against the node budget.
    package mutating func pairs(of map: [YAMLNode.Pair]) -> ArraySlice<YAMLNode.Pair> {
        map.prefix(visit(count: map.count))
    }

    /// The text of a mapping key, or `nil` for a collection.
    package static func keyText(_ key: YAMLNode) -> String? {
        key.text
    }

    package mutating func mapping(_ node: YAMLNode, _ what: String) -> [YAMLNode.Pair]? {
        if let map = node.mapping { return map }
        error("\(what) must be a mapping of keys to values", node.mark)
        return nil
    }

    package mutating func sequence(_ node: YAMLNode, _ what: String) -> [YAMLNode]? {
        if let list = node.sequence { return list }
        error("\(what) must be a list (\"- …\" items)", node.mark)
        return nil
    }

    package mutating func string(_ node: YAMLNode, _ what: String) -> String? {
        if let scalar = node.scalar { return scalar.text }
        error("\(what) must be text", node.mark)
        return nil
    }

    package mutating func strings(_ node: YAMLNode, _ what: String) -> [String] {
        if let scalar = node.scalar { return [scalar.text] }
        guard let list = sequence(node, what) else { return [] }
        return list.compactMap { item in
            // The message is formatted only for an item that is not text.
            if let scalar = item.scalar { return scalar.text }
            return string(item, "each of \(what)")
        }
    }

    package mutating func int(_ node: YAMLNode, _ what: String) -> Int? {
        if let text = node.scalar?.text, let number = Int(text) { return number }
        error("\(what) must be an integer", node.mark)
        return nil
    }

    package mutating func bool(_ node: YAMLNode, _ what: String) -> Bool? {
        switch node.scalar?.text {
        case "true": return true
        case "false": return false
        default:
            error("\(what) must be true or false", node.mark)
            return nil
        }
    }

    package mutating func unknownKey(_ key: YAMLNode, allowed: [String], in what: String) {
        let text = key.scalar?.text ?? "(not text)"
        error("unknown key \"\(text)\" in \(what); expected one of \(allowed.joined(separator: ", "))", key.mark)
    }

    // MARK: - Reporting

    package func location(_ mark: YAMLMark?) -> SourceLocation? {
        mark.map { SourceLocation(file: file, line: $0.line, column: $0.column) }
    }

    package mutating func error(_ message: String, at location: SourceLocation) {
        diagnostics.append(Diagnostic(.error, message, at: location))
    }

    package mutating func error(_ message: String, _ mark: YAMLMark?) {
        diagnostics.append(
            Diagnostic(.error, message, at: location(mark) ?? SourceLocation(file: file, line: 1, column: 1)))
    }

    /// A YAML value as a `RuleValue`: plain scalars typed as YAML's core schema types them
    /// (`5` an integer, `5.5` a number, `true` a boolean, `null` nil — quote `"5.2.0"`-like
    /// text to be safe), quoted scalars always strings, mappings tables, sequences arrays.
    package mutating func ruleValue(_ node: YAMLNode, _ what: String, requireTable: Bool) -> RuleValue {
        if requireTable, node.mapping == nil {
            error("\(what) must be a mapping of names to values", node.mark)
            return [:]
        }
        switch node.content {
        case .scalar(let scalar):
            return typedScalar(scalar, node.mark, what)
        case .mapping(let map):
            var fields: [String: RuleValue] = [:]
            for (key, value) in pairs(of: map) {
                guard let name = key.scalar?.text else { continue }
                let converted = ruleValue(value, "\(what).\(name)", requireTable: false)
                if case .nil = converted { continue }  // a Lua table cannot hold nil: leave it out
                fields[name] = converted
            }
            return .table(fields)
        case .sequence(let list):
            var items: [RuleValue] = []
            for item in list where visit() { items.append(ruleValue(item, what, requireTable: false)) }
            return .array(items)
        }
    }

    /// A scalar's value: by its explicit core-schema tag (`!!str 5` is text, `!!int "5"`
    /// an integer), else plain ones typed by ``plainScalar(_:)`` and quoted or block ones
    /// text. A tag the value does not fit is an error at the scalar; other tags (`!custom`)
    /// leave the scalar untyped, as if untagged.
    private mutating func typedScalar(_ scalar: YAMLScalar, _ mark: YAMLMark, _ what: String) -> RuleValue {
        let typed = Self.plainScalar(scalar.text)
        let expected: String
        switch scalar.tag {
        case "tag:yaml.org,2002:str"?:
            return .string(scalar.text)
        case "tag:yaml.org,2002:int"?:
            if case .int = typed { return typed }
            expected = "an integer"
        case "tag:yaml.org,2002:float"?:
            if case .double = typed { return typed }
            if case .int(let number) = typed { return .double(Double(number)) }
            expected = "a number"
        case "tag:yaml.org,2002:bool"?:
            if case .bool = typed { return typed }
            expected = "true or false"
        case "tag:yaml.org,2002:null"?:
            if case .nil = typed { return typed }
            expected = "null"
        default:
            return scalar.isPlain ? typed : .string(scalar.text)
        }
        let tag = "!!" + (scalar.tag ?? "").dropFirst("tag:yaml.org,2002:".count)
        error("\(what): \"\(scalar.text)\" is tagged \(tag) but is not \(expected)", mark)
        return .string(scalar.text)
    }

    /// A plain (unquoted) scalar typed as YAML 1.2's core schema types it: `true`/`false`,
    /// `null`/`~`/empty, integers (decimal, `0x` hex, `0o` octal), floats (`1.5`, `1e3`,
    /// `.inf`, `.nan`); anything else is text.
    package static func plainScalar(_ text: String) -> RuleValue {
        switch text {
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case "", "~", "null", "Null", "NULL": return .nil
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .double(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .double(-.infinity)
        case ".nan", ".NaN", ".NAN": return .double(.nan)
        default: break
        }
        let bytes = Array(text.utf8)
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let unsigned =
            bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") ? bytes.dropFirst() : bytes[...]
        if !unsigned.isEmpty, unsigned.allSatisfy(isDigit), let number = Int64(text) { return .int(number) }
        if text.hasPrefix("0x"), let number = Int64(text.dropFirst(2), radix: 16) { return .int(number) }
        if text.hasPrefix("0o"), let number = Int64(text.dropFirst(2), radix: 8) { return .int(number) }
        // [-+]? ( \.[0-9]+ | [0-9]+ ( \.[0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
        var index = unsigned.startIndex
        let end = unsigned.endIndex
        var mantissaDigits = 0
        while index < end, isDigit(unsigned[index]) {
            index += 1
            mantissaDigits += 1
        }
        if index < end, unsigned[index] == UInt8(ascii: ".") {
            index += 1
            while index < end, isDigit(unsigned[index]) {
                index += 1
                mantissaDigits += 1
            }
        }
        guard mantissaDigits > 0 else { return .string(text) }
        if index < end, unsigned[index] == UInt8(ascii: "e") || unsigned[index] == UInt8(ascii: "E") {
            index += 1
            if index < end, unsigned[index] == UInt8(ascii: "-") || unsigned[index] == UInt8(ascii: "+") { index += 1 }
            let exponentStart = index
            while index < end, isDigit(unsigned[index]) { index += 1 }
            guard index > exponentStart else { return .string(text) }
        }
        guard index == end, let number = Double(text) else { return .string(text) }
        return .double(number)
    }
}
