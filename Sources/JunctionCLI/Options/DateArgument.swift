import Foundation

/// A time as `bundle build` and `bundle publish` take it: an RFC 3339 date and time in
/// whole seconds, `Z` or an offset (`2026-06-30T00:00:00Z`, `2026-06-30T02:00:00+02:00`),
/// years 1970 to 9999.
struct DateArgument: OptionValue, Hashable, CustomStringConvertible {
    /// The time.
    let date: Date

    init(parsing text: String) throws(OptionValueError) {
        let invalid = OptionValueError("not an RFC 3339 date and time in whole seconds, like 2026-06-30T00:00:00Z")
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
        date = local.addingTimeInterval(TimeInterval(-offset))
    }

    /// The time in UTC, `2026-06-30T00:00:00Z`.
    var description: String { ShippingTime.format(date) }
}
