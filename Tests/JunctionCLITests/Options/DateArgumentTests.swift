import Foundation
import Testing

@testable import JunctionCLI

/// Times: RFC 3339 in whole seconds, `Z` or an offset, years 1970 to 9999.
@Suite struct DateArgumentTests {
    @Test(
        arguments: [
            ("2026-06-30T00:00:00Z", 1_782_777_600),
            ("2026-06-30T02:00:00+02:00", 1_782_777_600),
            ("2026-06-29T19:30:00-04:30", 1_782_777_600),
            ("1970-01-01T00:00:00Z", 0),
            ("2028-02-29T00:00:00Z", 1_835_395_200),
            ("9999-12-31T23:59:59Z", 253_402_300_799),
        ] as [(String, TimeInterval)])
    func readsATime(text: String, secondsSince1970: TimeInterval) throws {
        #expect(try DateArgument(parsing: text).date == Date(timeIntervalSince1970: secondsSince1970))
    }

    @Test(arguments: [
        "", "yesterday", "2026-06-30", "2026-06-30 00:00:00Z", "2026-06-30T00:00:00", "2026-06-30T00:00:00.5Z",
        "2026-06-30t00:00:00z", "2026-02-30T12:00:00Z", "2027-02-29T00:00:00Z", "2026-13-01T00:00:00Z",
        "2026-06-30T24:00:00Z", "2026-06-30T00:60:00Z", "2026-06-30T00:00:60Z", "1969-12-31T23:59:59Z",
        "2026-06-30T00:00:00+24:00", "2026-06-30T00:00:00+0200", "+2026-06-30T00:00:00Z",
    ])
    func refusesAnythingElseSayingWhatItTakes(text: String) {
        #expect(
            throws: OptionValueError("not an RFC 3339 date and time in whole seconds, like 2026-06-30T00:00:00Z")
        ) { try DateArgument(parsing: text) }
    }
}
