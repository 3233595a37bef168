import JunctionCore
import Testing

/// `compactDescription` quotes text as JSON does, whether it takes the whole-string path
/// (nothing to escape) or the scalar-by-scalar one.
@Suite struct RuleValueDescriptionTests {
    @Test(arguments: [
        ("plain", #""plain""#),
        ("myapp://user/42?tab=posts&x=1", #""myapp://user/42?tab=posts&x=1""#),
        ("中文 and emoji 🚀", #""中文 and emoji 🚀""#),
        ("a \"quote\" and a \\ backslash", #""a \"quote\" and a \\ backslash""#),
        ("line\nbreak\ttab\rreturn", #""line\nbreak\ttab\rreturn""#),
        ("nul\u{0}bell\u{7}del\u{7F}", #""nul\u0000bell\u0007del\u007f""#),
        ("separators\u{2028}and\u{2029}", #""separators\u2028and\u2029""#),
        ("an en dash – and …", #""an en dash – and …""#),
    ])
    func quotesTextAsJSON(text: String, quoted: String) {
        #expect(RuleValue.string(text).compactDescription == quoted)
        #expect(RuleValue.table(["k": .string(text)]).compactDescription == "{\"k\":\(quoted)}")
    }
}
