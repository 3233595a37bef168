import Foundation

/// The creation time of `bundle build` and `bundle publish`, and how both print times.
enum ShippingTime {
    /// The time the command runs at: `--created`, else `SOURCE_DATE_EPOCH` (whole seconds
    /// since 1970, for reproducible builds), else `now`; whole seconds.
    static func created(option: DateArgument?, environment: [String: String], now: Date) throws(UsageError) -> Date {
        if let option { return option.date }
        if let epoch = environment["SOURCE_DATE_EPOCH"] {
            // At most 11 digits (past the year 9999): the value is bounded before it is converted.
            guard (1...11).contains(epoch.utf8.count), epoch.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let seconds = Int64(epoch), seconds <= 253_402_300_799
            else {
                throw UsageError(
                    "SOURCE_DATE_EPOCH \"\(epoch.prefix(40))\" is not a whole number of seconds since 1970 (up to the year 9999)"
                )
            }
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        return Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
    }

    /// `2026-06-30T00:00:00Z`.
    static func format(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
