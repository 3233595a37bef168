/// `agent --interval S` and `--deadline S`: a number of seconds from 0 to 86400 (a day), with
/// at most three decimals (`0.5`); no sign or exponent.
struct SecondsArgument: OptionValue, Hashable, CustomStringConvertible {
    /// The span, to the millisecond.
    let duration: Duration

    init(parsing text: String) throws(OptionValueError) {
        guard text.wholeMatch(of: /[0-9]{1,5}(\.[0-9]{1,3})?/) != nil, let value = Double(text), value <= 86_400 else {
            throw OptionValueError("not a number of seconds from 0 to 86400 (0.5)")
        }
        duration = .milliseconds(Int64((value * 1_000).rounded()))
    }

    /// `seconds` seconds.
    init(seconds: Int) {
        duration = .seconds(seconds)
    }

    /// The seconds, as `Duration` prints them (`30.0 seconds`).
    var description: String { duration.description }
}
