import Foundation

/// `--expires WHEN` of `bundle build` and `bundle publish`: a ``DurationArgument`` after
/// the creation time (`30d`), or a ``DateArgument`` (`2026-06-30T00:00:00Z`).
enum ExpiryArgument: OptionValue, Hashable, CustomStringConvertible {
    /// This long after the creation time.
    case after(DurationArgument)
    /// At this time.
    case at(DateArgument)

    init(parsing text: String) throws(OptionValueError) {
        if DurationArgument.seconds(in: text) != nil {
            self = .after(try DurationArgument(parsing: text))
        } else if let date = try? DateArgument(parsing: text) {
            self = .at(date)
        } else {
            throw OptionValueError(
                "neither a duration (30d, 12h, 90m) nor an RFC 3339 date (2026-06-30T00:00:00Z)")
        }
    }

    /// The time it names, for something created at `start`; later than `start`.
    /// - Throws: ``UsageError`` naming `option` when the time is not after `start`.
    func date(after start: Date, option: String) throws(UsageError) -> Date {
        let end: Date
        switch self {
        case .after(let duration): end = start.addingTimeInterval(duration.seconds)
        case .at(let date): end = date.date
        }
        guard end > start else {
            throw UsageError(
                "\(option) \(ShippingTime.format(end)) is not after the creation time \(ShippingTime.format(start)); "
                    + "an artifact or pointer must be valid for a while")
        }
        return end
    }

    /// The duration or the time.
    var description: String {
        switch self {
        case .after(let duration): duration.description
        case .at(let date): date.description
        }
    }
}
