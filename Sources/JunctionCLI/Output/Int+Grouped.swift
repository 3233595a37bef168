extension Int {
    /// The number with its thousands grouped, as reports print counts: `1,234,567`.
    var grouped: String {
        let digits = String(self)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return out
    }
}
