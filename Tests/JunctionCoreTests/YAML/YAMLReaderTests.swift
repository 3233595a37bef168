@testable import JunctionAuthoring
@testable import JunctionCore
import Testing

/// The YAML reader on the system libyaml's events: what the composer refuses, where it
/// says so, and how scalars are typed.
@Suite struct YAMLReaderTests {
    /// Composes `text` as a route table would be; the root and every diagnostic as text.
    private func compose(_ text: String) -> (root: YAMLNode?, diagnostics: [String]) {
        var yaml = YAMLReader(file: "t.yaml", document: "a route table")
        let root = yaml.compose(text)
        return (root, yaml.diagnostics.map(\.description))
    }

    @Test(arguments: [
        ("a: &x 1\nb: [2, *x]", "t.yaml:2:8"),
        ("- &x {k: v}\n- {k2: *x}", "t.yaml:2:8"),
        ("? *x\n: 1", "t.yaml:1:3"),
    ])
    func refusesAnAliasWhereTheParserMeetsIt(_ text: String, _ place: String) {
        let (root, diagnostics) = compose(text)
        #expect(root == nil)
        #expect(
            diagnostics == [
                #"\#(place): error: YAML aliases ("*name") are not allowed in a route table; write the value out (and quote text that starts with "*")"#
            ])
    }

    @Test func acceptsAnAnchorThatNoAliasUses() {
        let (root, diagnostics) = compose("a: &x 1\nb: &y [2]")
        #expect(diagnostics.isEmpty)
        #expect(root?.mapping?.map(\.key.text) == ["a", "b"])
    }

    @Test(arguments: [
        (
            "a: [1, 2\nb: 3",
            "t.yaml:2:2: error: not valid YAML or JSON: did not find expected ',' or ']' while parsing a flow sequence"
        ),
        (
            "a: 'open\n",
            "t.yaml:2:1: error: not valid YAML or JSON: found unexpected end of stream while scanning a quoted scalar"
        ),
        ("a: 1\n b: 2", "t.yaml:2:3: error: not valid YAML or JSON: mapping values are not allowed in this context"),
        (
            "a: 1\n---\nb: 2",
            "t.yaml:2:1: error: not valid YAML or JSON: a second document starts here, but the file must hold a single document"
        ),
        ("a: \u{1}", "t.yaml:1:1: error: cannot read the file: control characters are not allowed at byte 3"),
    ])
    func placesLibyamlsProblemWhereItIs(_ text: String, _ expected: String) {
        let (root, diagnostics) = compose(text)
        #expect(root == nil)
        #expect(diagnostics == [expected])
    }

    @Test(arguments: [
        ("name: a\nname: b", "t.yaml:1:1: error: duplicate key \"name\" in this mapping; keep one"),
        ("b: 1\na: 2\nb: 3\na: 4", "t.yaml:2:1: error: duplicate key \"a\", \"b\" in this mapping; keep one"),
        ("routes:\n  - {x: 1, 'x': 2}", "t.yaml:2:6: error: duplicate key \"x\" in this mapping; keep one"),
        (
            (0..<40).map { "k\($0): 1\n" }.joined() + "k7: 2",
            "t.yaml:8:1: error: duplicate key \"k7\" in this mapping; keep one"
        ),
    ])
    func reportsDuplicateKeysAtTheFirstOfThem(_ text: String, _ expected: String) {
        let (root, diagnostics) = compose(text)
        #expect(root == nil)
        #expect(diagnostics == [expected])
    }

    @Test func keepsKeysThatDifferOnlyInTheirTag() {
        let (root, diagnostics) = compose("1: a\n!!int 1: b")
        #expect(diagnostics.isEmpty)
        #expect(root?.mapping?.count == 2)
    }

    @Test func typesPlainScalarsAndLeavesQuotedOnesText() {
        var yaml = YAMLReader(file: "t.yaml", document: "a rule-test file")
        let text = "i: 5\nq: \"5\"\ns: '5'\nb: true\nqb: \"true\"\nf: 1.5\nn: null\nt: ~\nl: |\n  5\nw: hello"
        guard let root = yaml.compose(text) else {
            Issue.record("\(yaml.diagnostics)")
            return
        }
        let value = yaml.ruleValue(root, "context", requireTable: true)
        #expect(
            value
                == .table([
                    "i": .int(5), "q": .string("5"), "s": .string("5"), "b": .bool(true), "qb": .string("true"),
                    "f": .double(1.5), "l": .string("5\n"), "w": .string("hello"),
                ]))
        #expect(yaml.diagnostics.isEmpty)
    }

    @Test(arguments: [
        ("v: !!str 5", RuleValue.string("5")),
        ("v: !!str true", .string("true")),
        ("v: !!str", .string("")),
        ("v: !!int \"42\"", .int(42)),
        ("v: !!float 2", .double(2)),
        ("v: !!float '1.5'", .double(1.5)),
        ("v: !!bool 'false'", .bool(false)),
        ("v: !custom 5", .int(5)),
        ("v: !custom '5'", .string("5")),
    ])
    func honoursCoreSchemaTags(_ text: String, _ expected: RuleValue) {
        var yaml = YAMLReader(file: "t.yaml", document: "a rule-test file")
        guard let root = yaml.compose(text) else {
            Issue.record("\(yaml.diagnostics)")
            return
        }
        #expect(yaml.ruleValue(root, "context", requireTable: true) == .table(["v": expected]))
        #expect(yaml.diagnostics.isEmpty)
    }

    @Test(arguments: [
        ("v: !!int 1.5", #"t.yaml:1:4: error: context.v: "1.5" is tagged !!int but is not an integer"#),
        ("a:\n  b: !!bool yes", #"t.yaml:2:6: error: context.a.b: "yes" is tagged !!bool but is not true or false"#),
        ("v: !!null 0", #"t.yaml:1:4: error: context.v: "0" is tagged !!null but is not null"#),
    ])
    func refusesAValueItsTagDoesNotFit(_ text: String, _ expected: String) {
        var yaml = YAMLReader(file: "t.yaml", document: "a rule-test file")
        guard let root = yaml.compose(text) else {
            Issue.record("\(yaml.diagnostics)")
            return
        }
        _ = yaml.ruleValue(root, "context", requireTable: true)
        #expect(yaml.diagnostics.map(\.description) == [expected])
    }

    @Test func keepsEachScalarsStyleTagAndPlace() throws {
        let (root, diagnostics) = compose("é: [plain, 'single', \"double\", !!str tagged]\nnext: >\n  folded\n")
        #expect(diagnostics.isEmpty)
        let pairs = try #require(root?.mapping)
        #expect(root?.mark == YAMLMark(line: 1, column: 1))
        let items = try #require(pairs[0].value.sequence)
        #expect(pairs[0].value.mark == YAMLMark(line: 1, column: 4))  // columns count Unicode scalars
        #expect(items.map { $0.scalar?.style } == [.plain, .singleQuoted, .doubleQuoted, .plain])
        #expect(items.map(\.mark.column) == [5, 12, 22, 32])
        #expect(items[3].scalar?.tag == "tag:yaml.org,2002:str")
        #expect(items[0].scalar?.tag == nil)
        #expect(pairs[1].value.scalar?.style == .folded)
        #expect(pairs[1].value.text == "folded\n")
    }

    @Test func readsJSONAsYAML() {
        let (root, diagnostics) = compose(#"{"routes": [{"name": "a", "pattern": "/a"}], "n": 1}"#)
        #expect(diagnostics.isEmpty)
        #expect(root?.mapping?.map(\.key.text) == ["routes", "n"])
        #expect(root?.mapping?.last?.value.scalar?.isPlain == true)
    }

    @Test func treatsAnEmptyDocumentAsNoRoot() {
        for text in ["", "# only a comment\n", "\n\n"] {
            let (root, diagnostics) = compose(text)
            #expect(root == nil)
            #expect(diagnostics.isEmpty)
        }
    }

    @Test func refusesADocumentNestedTooDeeply() {
        let (root, diagnostics) = compose(String(repeating: "[", count: 100_000))
        #expect(root == nil)
        #expect(
            diagnostics == [
                "t.yaml:1:201: error: the document nests more than 200 levels deep; a route table should be far flatter"
            ])
    }

    @Test func refusesADocumentWithTooManyNodes() {
        let count = YAMLReader.maximumNodes
        let (root, diagnostics) = compose("[" + String(repeating: "1,", count: count) + "1]")
        #expect(root == nil)
        #expect(
            diagnostics == [
                "t.yaml:1:\(2 * count): error: the document has more than \(count) nodes; a route table should be far smaller"
            ])
    }

    @Test func refusesAFileLargerThanTheLimit() {
        let (root, diagnostics) = compose(String(repeating: "#", count: YAMLReader.maximumFileSize + 1))
        #expect(root == nil)
        #expect(diagnostics == ["t.yaml:1:1: error: file is larger than 16 MiB; a route table should be far smaller"])
    }
}
