import Testing

@testable import JunctionCLI

/// `--salt`: 1 to 64 of `A-Z a-z 0-9 . _ -`.
@Suite struct SaltArgumentTests {
    @Test(arguments: ["spring-2026", "a", "A.b_c-9", String(repeating: "z", count: 64)])
    func readsASalt(text: String) throws {
        #expect(try SaltArgument(parsing: text).text == text)
    }

    @Test(arguments: ["", "has space", "é", "a/b", "a\n", String(repeating: "z", count: 65)])
    func refusesAnythingElseSayingWhatItTakes(text: String) {
        #expect(throws: OptionValueError("not 1 to 64 of A-Z a-z 0-9 . _ -")) { try SaltArgument(parsing: text) }
    }
}
