internal import CLibYAML

/// Builds a `YAMLNode` tree from the system libyaml's parser events: the only file that
/// talks to libyaml.
///
/// Aliases are refused where the parser meets them (nested aliases are a "billion
/// laughs" attack; no configuration needs them), so every node is written out in the
/// text and the tree is as large as the file. Anchors alone are harmless and ignored.
/// The tree is built with an explicit stack, not recursion, and its depth is capped so
/// that reading and freeing it cannot exhaust a thread's stack.
package struct YAMLComposer {
    /// Deeper than this is refused: configuration nests a few levels, and each level
    /// costs the recursive readers (and the tree's deinitialisation) stack.
    package static let maximumDepth = 200

    /// What the document is, for messages: "a route table".
    let document: String
    /// The most nodes the document may hold.
    let maximumNodes: Int
    /// What stopped the composer, and where (`nil`: the file as a whole).
    private(set) var problem: (message: String, mark: YAMLMark?)?

    init(document: String, maximumNodes: Int) {
        self.document = document
        self.maximumNodes = maximumNodes
    }

    /// The document's root; `nil` for an empty document or (with `problem` set) when the
    /// text cannot be read.
    mutating func compose(_ text: String) -> YAMLNode? {
        var text = text
        return text.withUTF8 { bytes in
            // libyaml wants a non-null buffer, and an empty text is an empty document.
            guard !bytes.isEmpty else { return nil }
            return compose(bytes)
        }
    }

    /// A collection whose end event has not come yet.
    private struct Frame {
        let isMapping: Bool
        let mark: YAMLMark
        var items: [YAMLNode] = []
        var pairs: [YAMLNode.Pair] = []
        var key: YAMLNode?

        mutating func add(_ node: YAMLNode) {
            if !isMapping {
                items.append(node)
            } else if let key {
                pairs.append((key, node))
                self.key = nil
            } else {
                key = node
            }
        }
    }

    private mutating func compose(_ bytes: UnsafeBufferPointer<UInt8>) -> YAMLNode? {
        // The parser points at itself (its string reader's data), so it needs a fixed address.
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else {
            problem = ("cannot read as YAML or JSON: out of memory", nil)
            return nil
        }
        defer { yaml_parser_delete(parser) }
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, bytes.baseAddress, bytes.count)

        var event = yaml_event_t()
        var stack: [Frame] = []
        var root: YAMLNode?
        var documents = 0
        var nodes = 0
        while true {
            guard yaml_parser_parse(parser, &event) == 1 else {
                reportError(of: parser)
                return nil
            }
            defer { yaml_event_delete(&event) }
            let mark = Self.mark(event.start_mark)
            let node: YAMLNode
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return root
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    return fail(
                        "not valid YAML or JSON: a second document starts here, but the file must hold a single document",
                        mark)
                }
                continue
            case YAML_ALIAS_EVENT:
                return fail(
                    "YAML aliases (\"*name\") are not allowed in \(document); write the value out (and quote text that starts with \"*\")",
                    mark)
            case YAML_SCALAR_EVENT:
                nodes += 1
                guard nodes <= maximumNodes else { return tooManyNodes(mark) }
                let scalar = event.data.scalar
                // Validating the bytes as UTF-8 is all it takes; up to 15 bytes stay inline.
                let text = String(
                    decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                let tag = scalar.tag.map { String(cString: $0) }
                node = YAMLNode(.scalar(YAMLScalar(text, style: Self.style(scalar.style), tag: tag)), at: mark)
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                nodes += 1
                guard nodes <= maximumNodes else { return tooManyNodes(mark) }
                guard stack.count < Self.maximumDepth else {
                    return fail(
                        "the document nests more than \(Self.maximumDepth) levels deep; \(document) should be far flatter",
                        mark)
                }
                stack.append(Frame(isMapping: event.type == YAML_MAPPING_START_EVENT, mark: mark))
                continue
            case YAML_SEQUENCE_END_EVENT:
                let frame = stack.removeLast()
                node = YAMLNode(.sequence(frame.items), at: frame.mark)
            case YAML_MAPPING_END_EVENT:
                let frame = stack.removeLast()
                if let duplicates = Self.duplicateKeys(in: frame.pairs) {
                    let list = duplicates.keys.map { "\"\($0)\"" }.joined(separator: ", ")
                    return fail("duplicate key \(list) in this mapping; keep one", duplicates.first)
                }
                node = YAMLNode(.mapping(frame.pairs), at: frame.mark)
            default:  // stream start, document end
                continue
            }
            if stack.isEmpty {
                root = node
            } else {
                stack[stack.count - 1].add(node)
            }
        }
    }

    private mutating func fail(_ message: String, _ mark: YAMLMark?) -> YAMLNode? {
        problem = (message, mark)
        return nil
    }

    private mutating func tooManyNodes(_ mark: YAMLMark) -> YAMLNode? {
        fail("the document has more than \(maximumNodes) nodes; \(document) should be far smaller", mark)
    }

    /// libyaml's problem in the words (and at the place) the Yams-based reader gave it.
    private mutating func reportError(of parser: UnsafeMutablePointer<yaml_parser_t>) {
        let problem = parser.pointee.problem.map { String(cString: $0) } ?? "unknown problem"
        switch parser.pointee.error {
        case YAML_READER_ERROR:
            _ = fail("cannot read the file: \(problem) at byte \(parser.pointee.problem_offset)", nil)
        case YAML_SCANNER_ERROR, YAML_PARSER_ERROR:
            let detail = parser.pointee.context.map { "\(problem) \(String(cString: $0))" } ?? problem
            _ = fail("not valid YAML or JSON: \(detail)", Self.mark(parser.pointee.problem_mark))
        default:
            _ = fail("cannot read as YAML or JSON: \(problem)", nil)
        }
    }

    private static func mark(_ mark: yaml_mark_t) -> YAMLMark {
        YAMLMark(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    private static func style(_ style: yaml_scalar_style_t) -> YAMLScalar.Style {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }

    // MARK: - Duplicate keys

    /// The keys a mapping repeats, sorted, and where the first of them is first written;
    /// `nil` when every key is unique. Keys are compared as text with their tag (so `a`
    /// and `"a"` are the same key, `!!int 1` and `1` are not); collections as keys are
    /// left to the readers, which refuse them.
    private static func duplicateKeys(in pairs: [YAMLNode.Pair]) -> (keys: [String], first: YAMLMark)? {
        guard pairs.count > 1 else { return nil }
        var repeated: [String: YAMLMark] = [:]  // text → where it first appears
        if pairs.count <= 16 {
            // Most mappings are a handful of keys: comparing each with those before it
            // beats hashing them.
            for index in 1..<pairs.count {
                guard case .scalar(let key) = pairs[index].key.content, repeated.isEmpty || repeated[key.text] == nil
                else { continue }
                for earlier in 0..<index {
                    guard case .scalar(let other) = pairs[earlier].key.content, sameKey(other, key) else { continue }
                    repeated[key.text] = pairs[earlier].key.mark
                    break
                }
            }
        } else {
            var seen: [String: Int] = [:]  // tag and text → the first pair with them
            for index in pairs.indices {
                guard case .scalar(let key) = pairs[index].key.content else { continue }
                let identity = resolvedTag(key) + "\u{0}" + key.text
                if let earlier = seen[identity] {
                    if repeated[key.text] == nil { repeated[key.text] = pairs[earlier].key.mark }
                } else {
                    seen[identity] = index
                }
            }
        }
        guard !repeated.isEmpty, let first = repeated.keys.min() else { return nil }
        return (repeated.keys.sorted(), repeated[first]!)
    }

    private static func sameKey(_ a: YAMLScalar, _ b: YAMLScalar) -> Bool {
        // Lengths first: most keys of a mapping differ in length, and that costs no compare.
        a.text.utf8.count == b.text.utf8.count && a.text == b.text
            && (a.tag == b.tag || resolvedTag(a) == resolvedTag(b))
    }

    /// An untagged (or `!`) scalar is a string: the readers type plain text themselves.
    private static func resolvedTag(_ scalar: YAMLScalar) -> String {
        switch scalar.tag {
        case nil, "!": "tag:yaml.org,2002:str"
        case let tag?: tag
        }
    }
}
