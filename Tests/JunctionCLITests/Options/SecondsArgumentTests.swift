import Testing

@testable import JunctionCLI

/// `agent --interval`, `--deadline`: 0 to 86400 seconds, at most three decimals.
@Suite struct SecondsArgumentTests {
    @Test(
        arguments: [
            ("0", .zero), ("0.5", .milliseconds(500)), ("60", .seconds(60)), ("0.001", .milliseconds(1)),
            ("86400", .seconds(86_400)), ("86400.000", .seconds(86_400)),
        ] as [(String, Duration)])
    func readsSeconds(text: String, duration: Duration) throws {
        #expect(try SecondsArgument(parsing: text).duration == duration)
    }

    @Test(arguments: ["", "soon", "-1", "1e3", "0.0001", "86400.001", "100000", ".5", "5.", "5s", "nan"])
    func refusesAnythingElseSayingWhatItTakes(text: String) {
        #expect(throws: OptionValueError("not a number of seconds from 0 to 86400 (0.5)")) {
            try SecondsArgument(parsing: text)
        }
    }
}
