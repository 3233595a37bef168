import Testing

@testable import JunctionCLI

/// `--seq`: 1 to 2⁵³ − 1 in decimal digits, nothing else.
@Suite struct SeqArgumentTests {
    @Test(
        arguments: [
            ("1", 1),
            ("42", 42),
            ("0007", 7),
            ("9007199254740991", 9_007_199_254_740_991),
        ] as [(String, UInt64)])
    func readsAWholeNumberFromOneTo2To53Minus1(text: String, value: UInt64) throws {
        #expect(try SeqArgument(parsing: text).value == value)
    }

    @Test(arguments: [
        "", "0", "-3", "+3", " 3", "3 ", "3.0", "1e3", "0x10", "٣", "9007199254740992", "9223372036854775807",
        "99999999999999999999", "000000000000000000001",
    ])
    func refusesAnythingElseSayingWhatItTakes(text: String) {
        #expect(
            throws: OptionValueError(
                "not a whole number from 1 to 9007199254740991 (2^53 - 1, the largest a pointer carries)")
        ) {
            try SeqArgument(parsing: text)
        }
        #expect(SeqArgument(argument: text) == nil)
    }
}
