package import JunctionAuthoring
import JunctionCore

extension FuzzTarget {
    /// YAML (and JSON) configuration documents: the input's first 4 KiB, as text, composed by
    /// ``YAMLReader`` (libyaml's events into a ``YAMLNode`` tree).
    ///
    /// Asserted: `compose` gives a node and no diagnostic, or `nil` with at most one (none
    /// only for an empty document); a text of nothing but spaces, line breaks and `#`
    /// comments is such an empty document; every diagnostic is an error in the file with a
    /// line in 1 ... lines + 1 (libyaml ends the stream on a line of its own) and a column in
    /// 1 ... longest line + 1 scalars; every node's mark is within the same bounds; the tree
    /// has at most ``YAMLReader/maximumNodes`` nodes, collections nest at most
    /// `YAMLComposer.maximumDepth` deep, and no mapping keeps two keys of the same bytes and
    /// tag (the composer refuses them); and a composed tree, written back by ``YAMLEmitter``,
    /// composes again to the same tree: the same scalars' text, tags and plainness (a plain
    /// scalar the emitter must quote, meaning text either way, aside), in the same order.
    static let yaml = FuzzTarget(
        name: "yaml",
        summary:
            "YAML composing: a node or a diagnostic, marks inside the text, node and depth limits, no duplicate keys, "
            + "what composes re-emits and re-composes the same"
    ) { bytes throws(FuzzFailure) in
        let text = String(fuzzBytes: Array(bytes.prefix(4096)))
        let file = "fuzz.yaml"
        var reader = YAMLReader(file: file, document: "a fuzzed document")
        let root = reader.compose(text)
        let diagnostics = reader.diagnostics
        let extent = YAMLTextExtent(text)

        if root != nil {
            try require(
                diagnostics.isEmpty, "a composed document has no diagnostic",
                diagnostics.map(\.description).joined(separator: "; "))
        }
        try require(
            diagnostics.count <= 1, "composing stops at its first problem",
            diagnostics.map(\.description).joined(separator: "; "))
        if extent.isBlank {
            try require(
                root == nil && diagnostics.isEmpty, "blank text is an empty document",
                "\(text.debugDescription): \(diagnostics.map(\.description).joined(separator: "; "))")
        }
        for diagnostic in diagnostics {
            guard let location = diagnostic.location else {
                throw FuzzFailure("a YAML diagnostic has a location", diagnostic.description)
            }
            try require(diagnostic.severity == .error, "a YAML diagnostic is an error", diagnostic.description)
            try require(!diagnostic.message.isEmpty, "a YAML diagnostic says why", diagnostic.description)
            try require(location.file == file, "a YAML diagnostic names the file", diagnostic.description)
            try require(
                extent.contains(line: location.line, column: location.column),
                "a YAML diagnostic points inside the text",
                "\(diagnostic) for \(extent.lines) lines of at most \(extent.longestLine) scalars")
        }

        guard let root else { return }
        var nodes = 0
        // Each node with the number of collections around it.
        var pending: [(node: YAMLNode, depth: Int)] = [(root, 0)]
        while let entry = pending.popLast() {
            let node = entry.node
            let outer = entry.depth
            nodes += 1
            try require(
                extent.contains(line: node.mark.line, column: node.mark.column), "a node's mark is inside the text",
                "\(node.mark.line):\(node.mark.column) for \(extent.lines) lines of at most \(extent.longestLine) scalars"
            )
            switch node.content {
            case .scalar:
                continue
            case .sequence(let items):
                let depth = outer + 1
                try require(
                    depth <= YAMLComposer.maximumDepth, "collections nest within the depth limit", "depth \(depth)")
                for item in items { pending.append((item, depth)) }
            case .mapping(let pairs):
                let depth = outer + 1
                try require(
                    depth <= YAMLComposer.maximumDepth, "collections nest within the depth limit", "depth \(depth)")
                var keys = Set<[UInt8]>()
                for pair in pairs {
                    if let key = pair.key.scalar {
                        // An untagged (or `!`) scalar is a string, as the composer resolves it.
                        let tag = (key.tag == nil || key.tag == "!") ? "tag:yaml.org,2002:str" : (key.tag ?? "")
                        try require(
                            keys.insert(Array(tag.utf8) + [0] + Array(key.text.utf8)).inserted,
                            "a mapping holds a key once", "\(key.text.debugDescription) (\(tag)) repeated")
                    }
                    pending.append((pair.key, depth))
                    pending.append((pair.value, depth))
                }
            }
        }
        try require(nodes <= YAMLReader.maximumNodes, "a tree holds at most maximumNodes nodes", "\(nodes) nodes")

        let written = YAMLEmitter.document(root)
        var again = YAMLReader(file: file, document: "a written document")
        let rewritten = again.compose(written)
        guard let rewritten else {
            throw FuzzFailure(
                "a composed tree, written, composes again",
                "\(again.diagnostics.map(\.description).joined(separator: "; ")) for \(written.debugDescription)")
        }
        if let difference = YAMLTreeDifference.between(root, rewritten) {
            throw FuzzFailure(
                "a composed tree, written, composes to the same tree",
                "\(difference) in \(written.debugDescription)")
        }
    }
}

/// Where two YAML trees differ, marks aside.
package enum YAMLTreeDifference {
    /// The first difference, as a path and what differs; `nil` when they are the same.
    package static func between(_ first: YAMLNode, _ second: YAMLNode) -> String? {
        var pending: [(YAMLNode, YAMLNode, String)] = [(first, second, "root")]
        while let (a, b, path) = pending.popLast() {
            switch (a.content, b.content) {
            case (.scalar(let x), .scalar(let y)):
                if x.text != y.text {
                    return "\(path): text \(x.text.debugDescription) became \(y.text.debugDescription)"
                }
                // A plain scalar the emitter writes quoted means the same text.
                let quotedAsText =
                    x.isPlain && y.style == .doubleQuoted && !YAMLEmitter.writesPlain(x.text)
                    && (x.tag != nil || YAMLReader.plainScalar(x.text) == .string(x.text))
                if x.isPlain != y.isPlain && !quotedAsText { return "\(path): plain \(x.isPlain) became \(y.isPlain)" }
                if x.tag != y.tag { return "\(path): tag \(x.tag ?? "none") became \(y.tag ?? "none")" }
            case (.sequence(let x), .sequence(let y)):
                guard x.count == y.count else { return "\(path): \(x.count) items became \(y.count)" }
                for (index, (p, q)) in zip(x, y).enumerated() { pending.append((p, q, "\(path)[\(index)]")) }
            case (.mapping(let x), .mapping(let y)):
                guard x.count == y.count else { return "\(path): \(x.count) pairs became \(y.count)" }
                for (index, (p, q)) in zip(x, y).enumerated() {
                    pending.append((p.value, q.value, "\(path).value#\(index)"))
                    pending.append((p.key, q.key, "\(path).key#\(index)"))
                }
            default:
                return "\(path): a \(a.content) became a \(b.content)"
            }
        }
        return nil
    }
}

/// How far a text reaches, as libyaml counts marks: lines, and the longest line in
/// Unicode scalars.
struct YAMLTextExtent {
    /// Lines, counting every break libyaml knows: CR LF, CR, LF, NEL, LS, PS.
    private(set) var lines = 1
    /// The most scalars between two CRs or LFs (NEL, LS and PS do not cut: a looser bound).
    private(set) var longestLine = 0
    /// Whether the text is only spaces, CRs and LFs, and `#` comments of visible ASCII.
    private(set) var isBlank = true

    init(_ text: String) {
        var column = 0
        var afterCR = false
        var inComment = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A:
                if !afterCR { lines += 1 }
                column = 0
                inComment = false
            case 0x0D:
                lines += 1
                column = 0
                inComment = false
            default:
                if scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029 { lines += 1 }
                column += 1
                longestLine = max(longestLine, column)
                if inComment {
                    if !(0x20...0x7E).contains(scalar.value) { isBlank = false }
                } else if scalar.value == 0x23 {
                    inComment = true
                } else if scalar.value != 0x20 {
                    isBlank = false
                }
            }
            afterCR = scalar.value == 0x0D
        }
    }

    /// Whether a 1-based mark lies within the text: a line up to one past the last (the
    /// stream's end), a column up to one past the longest line.
    func contains(line: Int, column: Int) -> Bool {
        (1...lines + 1).contains(line) && (1...longestLine + 1).contains(column)
    }
}
