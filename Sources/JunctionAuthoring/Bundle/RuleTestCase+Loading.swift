package import JunctionCore
package import JunctionLua

extension RuleTestCase {
    /// Reads the tests of one `tests/*.yaml` file.
    /// - Parameters:
    ///   - text: The file's YAML (or JSON).
    ///   - file: Its path, for diagnostics.
    ///   - manifest: The bundle's manifest, when it loaded: a test's `source:` must be one
    ///     of its ``BundleManifest/knownSources``, and its `context:` is typed and checked
    ///     by its ``BundleManifest/context`` schema.
    /// - Returns: The tests, in file order.
    /// - Throws: `BundleError` with every problem as `FILE:LINE:COLUMN`.
    package static func load(text: String, file: String, manifest: BundleManifest? = nil) throws(BundleError)
        -> [RuleTestCase]
    {
        var yaml = YAMLReader(file: file, document: "a rule-test file")
        guard let root = yaml.compose(text), let map = yaml.mapping(root, "a rule-test file") else {
            if yaml.diagnostics.isEmpty { yaml.error("the file is empty; a rule-test file has \"tests:\"", nil) }
            throw BundleError(yaml.diagnostics)
        }
        var tests: [RuleTestCase] = []
        var sawTests = false
        for (key, value) in yaml.pairs(of: map) {
            guard key.text == "tests" else {
                yaml.unknownKey(key, allowed: ["tests"], in: "a rule-test file")
                continue
            }
            sawTests = true
            guard let list = yaml.sequence(value, "tests") else { continue }
            for item in list where yaml.visit() {
                if let test = readTest(item, manifest, &yaml) { tests.append(test) }
            }
        }
        if !sawTests { yaml.error("missing \"tests:\" — the list of tests", root.mark) }
        var first: [String: SourceLocation] = [:]
        for test in tests {
            if let earlier = first[test.name] {
                yaml.error(
                    "a test named \"\(test.name)\" is already at line \(earlier.line); give each test its own name",
                    at: test.location)
            } else {
                first[test.name] = test.location
            }
        }
        guard yaml.diagnostics.isEmpty else { throw BundleError(yaml.diagnostics) }
        return tests
    }

    private static func readTest(_ node: YAMLNode, _ manifest: BundleManifest?, _ yaml: inout YAMLReader)
        -> RuleTestCase?
    {
        guard let map = yaml.mapping(node, "a test") else { return nil }
        var name: String?
        var open: String?
        var source = "internal"
        var context: RuleValue = [:]
        var params: RuleValue = [:]
        var expectation: Expectation?
        for (key, value) in yaml.pairs(of: map) {
            switch key.text {
            case "name": name = yaml.string(value, "name")
            case "open": open = yaml.string(value, "open")
            case "source":
                source = yaml.string(value, "source") ?? source
                if let message = manifest?.unknownSourceMessage(source) { yaml.error(message, value.mark) }
            case "context": context = yaml.contextValue(value, schema: manifest?.context)
            case "params": params = yaml.ruleValue(value, "params", requireTable: true)
            case "expect": expectation = readExpectation(value, &yaml, schema: manifest?.context)
            default:
                yaml.unknownKey(key, allowed: ["name", "open", "source", "context", "params", "expect"], in: "a test")
            }
        }
        let location = yaml.location(node.mark) ?? SourceLocation(file: yaml.file, line: 1, column: 1)
        guard let open else {
            yaml.error("this test has no \"open:\" — the URL it opens", node.mark)
            return nil
        }
        guard let expectation else {
            yaml.error("this test has no \"expect:\" — what the decision must be", node.mark)
            return nil
        }
        return RuleTestCase(
            name: name ?? "\(open) (line \(location.line))", open: open, source: source, context: context,
            params: params, expectation: expectation, location: location)
    }
}
