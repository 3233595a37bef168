import Foundation

/// A span of time as `bundle build` and `bundle publish` take it: 1 to 6 digits and a unit,
/// `d`, `h` or `m` (`30d`, `12h`, `90m`), more than none and at most ``longest``.
struct DurationArgument: OptionValue, Hashable, CustomStringConvertible {
    /// The longest accepted, 3650 days: an artifact or pointer that never expires would
    /// defeat the expiry that stops a mirror from serving it forever.
    static let longest: TimeInterval = 3_650 * 86_400

    /// The text, as given (`30d`).
    let text: String
    /// Its length in seconds.
    let seconds: TimeInterval

    init(parsing text: String) throws(OptionValueError) {
        guard let seconds = Self.seconds(in: text) else { throw OptionValueError("not a duration (30d, 12h, 90m)") }
        guard seconds <= Self.longest else {
            throw OptionValueError("longer than 3650d (ten years); give a shorter one")
        }
        self.text = text
        self.seconds = seconds
    }

    /// `days` days.
    static func days(_ days: Int) -> DurationArgument {
        DurationArgument(text: "\(days)d", seconds: TimeInterval(days) * 86_400)
    }

    private init(text: String, seconds: TimeInterval) {
        self.text = text
        self.seconds = seconds
    }

    /// The seconds `text` says when it has a duration's shape, however long; `nil` when it has not.
    static func seconds(in text: String) -> TimeInterval? {
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

    /// The text.
    var description: String { text }
}
