@testable import JunctionAuthoring
import Testing

/// What the generator writes a table's text as: a literal that ends where it should, a
/// comment that stays on its line — whatever the text holds, even what the loader refuses.
@Suite struct SwiftTextTests {
    /// Regression (issue 27, item 3): the three texts that became Swift declarations in a
    /// `///` comment — a query parameter's name, a default, a regex — written by the
    /// generator as if the loader had let them through.
    static let injections = [
        "x\nstatic let injectedByName = { print(\"owned at load\") }()\n//",
        "posts\nstatic let injectedByDefault = { print(\"owned at load\") }()\n//",
        "[0-9]+\nstatic let injectedByRegex = 1\n",
    ]

    @Test(arguments: injections)
    func writesTheInjectionsOnOneLine(_ text: String) {
        for written in [SwiftText.comment(text), SwiftText.code(text), SwiftText.literal(text)] {
            #expect(!written.contains("\n"), "\(written)")
            #expect(written.contains("static let injected"))
        }
        #expect(SwiftText.code(text).hasPrefix("`") && SwiftText.code(text).hasSuffix("`"))
    }

    @Test(arguments: [
        ("plain", "\"plain\""),
        ("say \"hi\"", #""say \"hi\"""#),
        (#"a\(b)"#, #""a\\(b)""#),
        ("a\nb\r\tc", #""a\nb\r\tc""#),
        ("\0\u{1B}\u{7F}\u{85}", #""\u{0}\u{1b}\u{7f}\u{85}""#),
        ("\u{2028}\u{2029}\u{202E}\u{2066}", #""\u{2028}\u{2029}\u{202e}\u{2066}""#),
        ("\"\"\"", #""\"\"\"""#),
        ("é用户", "\"é用户\""),
    ])
    func escapesEveryLiteral(_ text: String, _ literal: String) {
        #expect(SwiftText.literal(text) == literal)
    }

    @Test(arguments: [
        ("A profile.", "A profile."),
        (
            "One.\nTwo.\r\nThree.\rFour.\u{2028}Five.\u{2029}Six.\u{85}Seven.",
            "One. Two. Three. Four. Five. Six. Seven."
        ),
        ("tab\there", #"tab\u{9}here"#),
        ("exa\u{202E}elpm", #"exa\u{202E}elpm"#),
        ("*/ /* \"", "*/ /* \""),
    ])
    func keepsCommentsOnOneLineAndShowsControls(_ text: String, _ comment: String) {
        #expect(SwiftText.comment(text) == comment)
    }

    @Test(arguments: [
        ("myapp://user/:id", "`myapp://user/:id`"), ("a`b", "`` a`b ``"), ("``x`", "``` ``x` ```"),
        ("a\nb", #"`a b`"#), ("a\u{1B}b", #"`a\u{1B}b`"#),
    ])
    func fencesCodeSoNothingInsideClosesIt(_ text: String, _ code: String) {
        #expect(SwiftText.code(text) == code)
    }
}
