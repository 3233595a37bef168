import Testing

@testable import JunctionCLI

/// `keygen --epoch`: 0 to 2⁵³ − 1 in decimal digits, nothing else.
@Suite struct EpochArgumentTests {
    @Test(arguments: [("0", 0), ("2", 2), ("9007199254740991", 9_007_199_254_740_991)] as [(String, UInt64)])
    func readsAWholeNumberFromZeroTo2To53Minus1(text: String, value: UInt64) throws {
        #expect(try EpochArgument(parsing: text).value == value)
    }

    @Test(arguments: ["", "-1", "1.5", "one", "9007199254740992", "00000000000000001"])
    func refusesAnythingElseSayingWhatItTakes(text: String) {
        #expect(throws: OptionValueError("not a whole number from 0 to 9007199254740991")) {
            try EpochArgument(parsing: text)
        }
    }
}
