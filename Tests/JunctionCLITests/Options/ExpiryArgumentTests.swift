import Foundation
import Testing

@testable import JunctionCLI

/// `--expires`: a duration after the creation time, or a time; later than the creation time.
@Suite struct ExpiryArgumentTests {
    static let created = Date(timeIntervalSince1970: 1_780_228_800)  // 2026-05-31T12:00:00Z

    @Test(
        arguments: [
            ("30d", 1_780_228_800 + 30 * 86_400),
            ("90m", 1_780_228_800 + 90 * 60),
            ("2026-06-01T00:00:00Z", 1_780_272_000),
            ("2026-06-01T02:00:00+02:00", 1_780_272_000),
        ] as [(String, TimeInterval)])
    func namesATimeAfterTheCreationTime(text: String, secondsSince1970: TimeInterval) throws {
        let expiry = try ExpiryArgument(parsing: text)
        #expect(
            try expiry.date(after: Self.created, option: "--expires") == Date(timeIntervalSince1970: secondsSince1970))
    }

    @Test(arguments: [
        ("0d", "neither a duration (30d, 12h, 90m) nor an RFC 3339 date (2026-06-30T00:00:00Z)"),
        ("30w", "neither a duration (30d, 12h, 90m) nor an RFC 3339 date (2026-06-30T00:00:00Z)"),
        ("-5d", "neither a duration (30d, 12h, 90m) nor an RFC 3339 date (2026-06-30T00:00:00Z)"),
        ("2026-02-30T00:00:00Z", "neither a duration (30d, 12h, 90m) nor an RFC 3339 date (2026-06-30T00:00:00Z)"),
        ("3651d", "longer than 3650d (ten years); give a shorter one"),
    ])
    func refusesAnythingElseSayingWhy(text: String, reason: String) {
        #expect(throws: OptionValueError(reason)) { try ExpiryArgument(parsing: text) }
    }

    @Test(arguments: ["2026-05-31T12:00:00Z", "2026-01-01T00:00:00Z"])
    func aTimeNotAfterTheCreationTimeIsAUsageErrorNamingTheOption(text: String) throws {
        let expiry = try ExpiryArgument(parsing: text)
        #expect {
            try expiry.date(after: Self.created, option: "--expires")
        } throws: { error in
            (error as? UsageError)?.message
                == "--expires \(text) is not after the creation time 2026-05-31T12:00:00Z; an artifact or pointer must be valid for a while"
        }
    }
}
