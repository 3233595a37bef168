package import JunctionCore

extension BundleManifest {
    /// Reads a manifest from YAML or JSON text.
    /// - Parameters:
    ///   - text: The manifest.
    ///   - file: The name diagnostics give the text.
    /// - Returns: The manifest.
    /// - Throws: `BundleError` with every problem as `FILE:LINE:COLUMN`.
    package static func load(text: String, file: String) throws(BundleError) -> BundleManifest {
        var yaml = YAMLReader(file: file, document: "a bundle manifest")
        let root = yaml.compose(text)
        guard let root, let map = yaml.mapping(root, "the manifest") else {
            if root == nil, yaml.diagnostics.isEmpty {
                yaml.error("the manifest is empty; it needs at least \"name:\" and \"version:\"", nil)
            }
            throw BundleError(yaml.diagnostics)
        }
        var name: String?
        var version: BundleVersion?
        var manifest = BundleManifest(name: "", version: .integer(0))
        for (key, value) in yaml.pairs(of: map) {
            switch key.text {
            case "name":
                guard let text = yaml.string(value, "name") else { continue }
                if !text.isEmpty,
                    text.utf8.allSatisfy({ Bytes.isAlpha($0) || Bytes.isDigit($0) || "._-".utf8.contains($0) })
                {
                    name = text
                } else {
                    yaml.error("name \"\(text)\" must be letters, digits, \".\", \"_\" and \"-\"", value.mark)
                }
            case "version":
                guard let text = yaml.string(value, "version") else { continue }
                if let parsed = BundleVersion(text) {
                    version = parsed
                } else {
                    yaml.error(
                        "version \"\(text)\" is neither a whole number (12) nor a semantic version (1.4.0)", value.mark)
                }
            case "minimum_host_version":
                guard let text = yaml.string(value, "minimum_host_version") else { continue }
                do {
                    manifest.minimumHostVersion = try SemanticVersion(parsing: text)
                } catch {
                    yaml.error("minimum_host_version: \(error)", value.mark)
                }
            case "description":
                manifest.description = yaml.string(value, "description")
            case "on_error":
                let text = value.scalar?.text ?? ""
                if let policy = RuleErrorPolicy(rawValue: text) {
                    manifest.onError = policy
                } else {
                    yaml.error("on_error must be reject or continue (got \"\(text)\")", value.mark)
                }
            case "sources":
                manifest.sources = readSources(value, &yaml)
            case "context":
                manifest.context = ContextSchema.read(value, &yaml)
            default:
                yaml.unknownKey(
                    key,
                    allowed: [
                        "name", "version", "minimum_host_version", "description", "on_error", "sources", "context",
                    ],
                    in: "the manifest")
            }
        }
        if name == nil, !yaml.diagnostics.contains(where: { $0.message.hasPrefix("name ") }) {
            yaml.error("missing \"name:\" — the bundle's name", root.mark)
        }
        if version == nil, !yaml.diagnostics.contains(where: { $0.message.hasPrefix("version ") }) {
            yaml.error(
                "missing \"version:\" — a whole number or a semantic version that grows with every release", root.mark)
        }
        guard yaml.diagnostics.isEmpty, let name, let version else { throw BundleError(yaml.diagnostics) }
        manifest.name = name
        manifest.version = version
        return manifest
    }

    /// `sources: [mini_program, car_play]`: names like the standard ones (lowercase
    /// letters, digits and `_`), each once, none of them standard.
    private static func readSources(_ node: YAMLNode, _ yaml: inout YAMLReader) -> [RequestSource] {
        guard let list = yaml.sequence(node, "sources") else { return [] }
        var sources: [RequestSource] = []
        for item in list where yaml.visit() {
            guard let name = yaml.string(item, "a source") else { continue }
            let source = RequestSource(rawValue: name)
            if name.isEmpty
                || !name.utf8.allSatisfy({
                    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || Bytes.isDigit($0) || $0 == UInt8(ascii: "_")
                })
            {
                yaml.error(
                    "source \"\(name)\" must be lowercase letters, digits and \"_\", like mini_program", item.mark)
            } else if RequestSource.standard.contains(source) {
                yaml.error("source \"\(name)\" is standard already; list only the app's own sources", item.mark)
            } else if sources.contains(source) {
                yaml.error("source \"\(name)\" is listed twice", item.mark)
            } else {
                sources.append(source)
            }
        }
        return sources
    }
}
