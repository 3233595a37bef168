import Foundation
import Testing

@testable import JunctionArtifact

@Suite struct RFC3339Tests {
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00Z"),
        (951_782_400, "2000-02-29T00:00:00Z"),
        (1_780_228_800.9, "2026-05-31T12:00:00Z"),
        (4_102_444_799, "2099-12-31T23:59:59Z"),
        (253_402_300_799, "9999-12-31T23:59:59Z"),
    ])
    func writesUTCInWholeSeconds(seconds: Double, text: String) {
        #expect(RFC3339.format(Date(timeIntervalSince1970: seconds)) == text)
        #expect(RFC3339.parse(text) == Date(timeIntervalSince1970: seconds.rounded(.down)))
    }

    @Test func readsBackEveryDayForFourHundredYears() {
        for day in stride(from: Int64(0), to: 146_097, by: 1) {
            let date = Date(timeIntervalSince1970: Double(day * 86_400 + 45_296))
            #expect(RFC3339.parse(RFC3339.format(date)) == date)
        }
    }

    @Test(arguments: [
        "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z",
        "2026-01-01T00:00:60Z", "2026-01-01T00:00:00+00:00", "2026-01-01t00:00:00Z", "2026-01-01T00:00:00.0Z",
        "1969-12-31T23:59:59Z", "+026-01-01T00:00:00Z", "2026-1-01T00:00:00Z", "", "2026-01-00T00:00:00Z",
    ])
    func refusesEveryOtherForm(text: String) {
        #expect(RFC3339.parse(text) == nil)
    }
}
