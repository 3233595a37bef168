import Testing

@testable import JunctionCLI

/// `--rollout`: 0 to 100 with at most four decimals, written plainly.
@Suite struct PercentArgumentTests {
    @Test(
        arguments: [
            ("0", 0, "0"), ("10", 10, "10"), ("12.5", 12.5, "12.5"), ("0.0001", 0.0001, "0.0001"), ("100", 100, "100"),
            ("100.0", 100, "100"), ("007", 7, "7"),
        ] as [(String, Double, String)])
    func readsAPercentage(text: String, value: Double, printed: String) throws {
        let percent = try PercentArgument(parsing: text)
        #expect(percent.value == value)
        #expect(percent.description == printed)
    }

    @Test(arguments: ["", "101", "100.0001", "1e2", "nan", "inf", "-1", "+5", "12.", ".5", "12.34567", "1000", "5%"])
    func refusesAnythingElseSayingWhatItTakes(text: String) {
        #expect(throws: OptionValueError("not a percentage from 0 to 100 (12.5)")) {
            try PercentArgument(parsing: text)
        }
    }
}
