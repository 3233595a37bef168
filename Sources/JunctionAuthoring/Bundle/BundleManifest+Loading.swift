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
        var logMark: YAMLMark?
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
            case "allow":
                manifest.allowances = readAllowances(value, &yaml)
            case "log":
                if let policy = readLogPolicy(value, &yaml) {
                    manifest.log = policy
                    logMark = value.mark
                }
            default:
                yaml.unknownKey(
                    key,
                    allowed: [
                        "name", "version", "minimum_host_version", "description", "on_error", "sources", "context",
                        "log", "allow",
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
        // The context keys it may log are read against the schema, wherever each is written.
        if let logMark, let problem = manifest.log.problem(schema: manifest.context) { yaml.error(problem, logMark) }
        guard yaml.diagnostics.isEmpty, let name, let version else { throw BundleError(yaml.diagnostics) }
        manifest.name = name
        manifest.version = version
        return manifest
    }

    /// `log: off`, or `log: { sample, context, mask, hash }` (``DecisionLogPolicy``).
    private static func readLogPolicy(_ node: YAMLNode, _ yaml: inout YAMLReader) -> DecisionLogPolicy? {
        if let text = node.scalar?.text {
            guard ["off", "false"].contains(text) else {
                yaml.error("log must be off, or a mapping of sample, context, mask and hash", node.mark)
                return nil
            }
            return .off
        }
        guard let map = yaml.mapping(node, "log") else { return nil }
        var policy = DecisionLogPolicy()
        for (key, value) in yaml.pairs(of: map) {
            switch key.text {
            case "sample":
                guard let text = value.scalar?.text, let share = Double(text) else {
                    yaml.error("log: sample must be a number from 0 to 1", value.mark)
                    continue
                }
                policy.sample = share
            case "context": policy.context = yaml.strings(value, "log: context")
            case "mask": policy.masked = yaml.strings(value, "log: mask")
            case "hash": policy.hashed = yaml.strings(value, "log: hash")
            default: yaml.unknownKey(key, allowed: ["sample", "context", "mask", "hash"], in: "log")
            }
        }
        return policy
    }

    /// `allow:`, a list of `{ code, at, reason }`, each text and none empty.
    private static func readAllowances(_ node: YAMLNode, _ yaml: inout YAMLReader) -> [FindingAllowance] {
        guard let list = yaml.sequence(node, "allow") else { return [] }
        guard list.count <= FindingAllowance.maximumCount else {
            yaml.error("allow lists more than \(FindingAllowance.maximumCount) allowances", node.mark)
            return []
        }
        var allowances: [FindingAllowance] = []
        for item in list where yaml.visit() {
            guard let map = yaml.mapping(item, "each allowance") else { continue }
            let problemsBefore = yaml.diagnostics.count
            var fields: [String: String] = [:]
            for (key, value) in yaml.pairs(of: map) {
                guard let name = key.scalar?.text, ["code", "at", "reason"].contains(name) else {
                    yaml.unknownKey(key, allowed: ["code", "at", "reason"], in: "an allowance")
                    continue
                }
                guard let text = yaml.string(value, name) else { continue }
                if let problem = FindingAllowance.problem(with: text, field: name) {
                    yaml.error("allow: \(problem)", value.mark)
                    continue
                }
                fields[name] = text
            }
            let missing = ["code", "at", "reason"].filter { fields[$0] == nil }
            guard missing.isEmpty, let code = fields["code"], let subject = fields["at"], let reason = fields["reason"]
            else {
                if !missing.isEmpty, yaml.diagnostics.count == problemsBefore {
                    yaml.error(
                        "each allowance needs code:, at: and reason: (missing \(missing.joined(separator: ", "))) — "
                            + "the finding's code, what it is about, and why it is accepted", item.mark)
                }
                continue
            }
            allowances.append(
                FindingAllowance(code: code, subject: subject, reason: reason, location: yaml.location(item.mark)))
        }
        return allowances
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
