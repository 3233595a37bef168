/// `bundle publish --rollout PERCENT`: a share of devices, 0 to 100, with at most four
/// decimals (`12.5`); no sign, exponent, `nan` or `inf`.
struct PercentArgument: OptionValue, Hashable, CustomStringConvertible {
    /// The percentage.
    let value: Double

    init(parsing text: String) throws(OptionValueError) {
        guard text.wholeMatch(of: /[0-9]{1,3}(\.[0-9]{1,4})?/) != nil, let value = Double(text), value <= 100 else {
            throw OptionValueError("not a percentage from 0 to 100 (12.5)")
        }
        self.value = value
    }

    /// `10`, or `12.5` when it has a fraction.
    var description: String { Self.text(of: value) }

    /// `percent` as the command line writes it: `10`, or `12.5` when it has a fraction.
    static func text(of percent: Double) -> String {
        percent == percent.rounded() ? String(Int(percent)) : String(percent)
    }
}
