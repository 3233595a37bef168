import Foundation
import Testing

@testable import JunctionCLI

/// Durations: 1 to 6 digits and `d`, `h` or `m`; more than none, at most 3650 days.
@Suite struct DurationArgumentTests {
    @Test(
        arguments: [
            ("30d", 30 * 86_400), ("12h", 12 * 3_600), ("90m", 90 * 60), ("1m", 60), ("3650d", 3_650 * 86_400),
            ("87600h", 3_650 * 86_400), ("000001d", 86_400),
        ] as [(String, TimeInterval)])
    func readsADuration(text: String, seconds: TimeInterval) throws {
        let duration = try DurationArgument(parsing: text)
        #expect(duration.seconds == seconds)
        #expect(duration.description == text)
    }

    @Test(arguments: [
        ("0d", "not a duration (30d, 12h, 90m)"),
        ("30w", "not a duration (30d, 12h, 90m)"),
        ("-5d", "not a duration (30d, 12h, 90m)"),
        ("d", "not a duration (30d, 12h, 90m)"),
        ("1.5d", "not a duration (30d, 12h, 90m)"),
        ("30D", "not a duration (30d, 12h, 90m)"),
        ("1234567d", "not a duration (30d, 12h, 90m)"),
        ("3651d", "longer than 3650d (ten years); give a shorter one"),
        ("87601h", "longer than 3650d (ten years); give a shorter one"),
        ("999999h", "longer than 3650d (ten years); give a shorter one"),
    ])
    func refusesAnythingElseSayingWhy(text: String, reason: String) {
        #expect(throws: OptionValueError(reason)) { try DurationArgument(parsing: text) }
    }

    @Test func daysIsWhatItsTextSays() throws {
        #expect(DurationArgument.days(30) == (try DurationArgument(parsing: "30d")))
    }
}
