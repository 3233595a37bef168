import JunctionAuthoring
import JunctionFuzzTargets
import Testing

/// The YAML emitter writes back what the composer built: composing its text gives the same
/// tree — scalars' text, tags and plainness, order — whatever the document's style was.
@Suite struct YAMLEmitterTests {
    /// Composes `text`, writes the tree and composes that; the written text and the first
    /// difference between the two trees.
    private func roundTrip(_ text: String) throws -> (written: String, difference: String?) {
        var reader = YAMLReader(file: "t.yaml", document: "a test document")
        let composed = reader.compose(text)
        let root = try #require(composed, "\(reader.diagnostics)")
        let written = YAMLEmitter.document(root)
        var again = YAMLReader(file: "w.yaml", document: "a written document")
        let recomposed = again.compose(written)
        let rewritten = try #require(recomposed, "\(again.diagnostics) for \(written.debugDescription)")
        return (written, YAMLTreeDifference.between(root, rewritten))
    }

    @Test(arguments: [
        "a: 1\nb: [x, 'y', \"z\"]\nc: {d: [], e: {}}",
        "k: a\n  b\n\n  c\n\n\n  d",
        "k: !!int 5\nl: !custom x\nm: ! text\nn: !<tag:example.com,2026:a%20b> v",
        "k: \"tab\\there \\u0001 \\u2028 \\u00e9 \\\"q\\\" \\\\\"",
        "k: |\n  line 1\n  line 2\nl: >\n  folded\n  text\n",
        "a:\n- b:\n  c: ~\n? [x, y]\n: {z: w}",
        "[-, a:b, 'it''s', -x, ?x]",
        "just text",
        "---",
        // The yaml fuzz target's findings: a plain `-` key before its colon; an implicit
        // key ending with a colon; a line separator in a plain scalar.
        "x:\n  -: a",
        "patte name:: v",
        "n:\u{FFFD}\u{2028}\nl",
    ])
    func aWrittenTreeComposesToTheSameTree(_ text: String) throws {
        let (written, difference) = try roundTrip(text)
        #expect(difference == nil, "\(written.debugDescription)")
    }

    @Test func writesBlockStyleWithExplicitKeys() throws {
        #expect(
            try roundTrip("a: 1\nb: [x, 'y']\nc: {}").written == "---\n? a\n: 1\n? b\n:\n  - x\n  - \"y\"\n? c\n: {}\n")
    }

    @Test(arguments: [
        ("text", true), ("a b", true), ("a:b", true), ("-x", true), ("a#b", true), ("a\nb", true), ("", true),
        ("-", false), ("? x", false), (":", false), ("a: b", false), ("a:", false), ("a #b", false),
        ("#a", false), (" a", false), ("a ", false), ("a\n b", false), ("[a", false), ("a\u{2028}b", false),
    ])
    func writesPlainOnlyWhatReadsBackPlain(_ text: String, _ plain: Bool) {
        #expect(YAMLEmitter.writesPlain(text) == plain)
    }
}
