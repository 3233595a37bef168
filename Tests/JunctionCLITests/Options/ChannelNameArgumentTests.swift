import Testing

@testable import JunctionCLI

/// `--channel NAME`: a file name inside `channels/`, never a path or a hidden file.
@Suite struct ChannelNameArgumentTests {
    @Test(arguments: ["stable", "beta-2", "0.canary_x", String(repeating: "a", count: 64)])
    func readsAChannelName(text: String) throws {
        #expect(try ChannelNameArgument(parsing: text).name == text)
    }

    @Test(arguments: ["", "Stable", "../x", ".hidden", "a/b", "-x", "_x", "a b", String(repeating: "a", count: 65)])
    func refusesAnythingElseSayingWhatItTakes(text: String) {
        #expect(
            throws: OptionValueError(
                "not a channel name: 1 to 64 of a-z 0-9 . _ -, starting with a letter or digit")
        ) { try ChannelNameArgument(parsing: text) }
    }
}
