import Foundation

/// The dates and durations of `bundle build` and `bundle publish`: RFC 3339 times,
/// `30d`/`12h`/`90m` durations and `SOURCE_DATE_EPOCH`.
enum ShippingTime {
    /// The longest duration accepted: an artifact or pointer that never expires would
    /// defeat the expiry that stops a mirror from serving it forever.
    static let longestDuration: TimeInterval = 3_650 * 86_400

    /// The time the command runs at: `--created`, else `SOURCE_DATE_EPOCH` (whole seconds
    /// since 1970, for reproducible builds), else `now`; whole seconds.
    static func created(option: String?, environment: [String: String], now: Date) throws(UsageError) -> Date {
        if let option { return try date(option, option: "--created") }
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

    /// `text` as a duration after `start` (`30d`, `12h`, `90m`) or as an RFC 3339 date;
    /// it must be later than `start`.
    static func expiry(_ text: String, after start: Date, option: String) throws(UsageError) -> Date {
        let end: Date
        if let seconds = duration(text) {
            guard seconds <= longestDuration else {
                throw UsageError("\(option) \(text) is longer than 3650d (ten years); give a shorter one")
            }
            end = start.addingTimeInterval(seconds)
        } else if let date = try? date(text, option: option) {
            end = date
        } else {
            throw UsageError(
                "\(option) \"\(text.prefix(40))\" is neither a duration (30d, 12h, 90m) nor an RFC 3339 date (2026-06-30T00:00:00Z)"
            )
        }
        guard end > start else {
            throw UsageError(
                "\(option) \(format(end)) is not after the creation time \(format(start)); an artifact or pointer must be valid for a while"
            )
        }
        return end
    }

    /// Seconds in `text` when it is 1 to 6 digits and a unit: `d`, `h` or `m`.
    static func duration(_ text: String) -> TimeInterval? {
        guard let unit = text.last, (2...7).contains(text.utf8.count) else { return nil }
        let digits = text.dropLast()
        guard digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(digits), number > 0 else {
            return nil
        }
        switch unit {
        case "d": return TimeInterval(number) * 86_400
        case "h": return TimeInterval(number) * 3_600
        case "m": return TimeInterval(number) * 60
        default: return nil
        }
    }

    /// An RFC 3339 date and time in whole seconds, `Z` or an offset:
    /// `2026-06-30T00:00:00Z`, `2026-06-30T02:00:00+02:00`; years 1970 to 9999.
    static func date(_ text: String, option: String) throws(UsageError) -> Date {
        let invalid = UsageError(
            "\(option) \"\(text.prefix(40))\" is not an RFC 3339 date and time in whole seconds, like 2026-06-30T00:00:00Z"
        )
        let bytes = Array(text.utf8)
        guard bytes.count == 20 || bytes.count == 25 else { throw invalid }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A,
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            year >= 1970, (1...12).contains(month), hour < 24, minute < 60, second < 60
        else { throw invalid }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day >= 1, day <= monthDays[month - 1] else { throw invalid }
        var offset = 0
        if bytes.count == 20 {
            guard bytes[19] == 0x5A else { throw invalid }
        } else {
            guard bytes[19] == 0x2B || bytes[19] == 0x2D, bytes[22] == 0x3A, let hours = number(20..<22),
                let minutes = number(23..<25), hours < 24, minutes < 60
            else { throw invalid }
            offset = (hours * 3_600 + minutes * 60) * (bytes[19] == 0x2B ? 1 : -1)
        }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (hour, minute, second)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let local = calendar.date(from: components) else { throw invalid }
        return local.addingTimeInterval(TimeInterval(-offset))
    }

    /// `2026-06-30T00:00:00Z`.
    static func format(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
