/// A set of Unicode scalars, as a character class matches them: ASCII in a 128-bit map
/// (one shift and mask for the common case), everything above in sorted, disjoint ranges.
struct ScalarSet: Sendable, Hashable {
    /// Scalars U+0000–U+003F, bit `n` for U+00nn.
    private let low: UInt64
    /// Scalars U+0040–U+007F.
    private let high: UInt64
    /// The non-ASCII members: sorted, disjoint, not adjacent, all above U+007F.
    private let ranges: [ClosedRange<UInt32>]

    /// The largest Unicode scalar value.
    static let maximum: UInt32 = 0x10FFFF

    /// `\d`: ASCII digits.
    static let digitRanges: [ClosedRange<UInt32>] = [0x30...0x39]
    /// `\w`: ASCII letters, digits and `_`.
    static let wordRanges: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
    /// `\s`: ASCII white space — tab, line feed, vertical tab, form feed, carriage return, space.
    static let spaceRanges: [ClosedRange<UInt32>] = [0x09...0x0D, 0x20...0x20]
    /// What `.` leaves out: line breaks, the same ones Swift's `Regex` leaves out.
    static let lineBreakRanges: [ClosedRange<UInt32>] = [0x0A...0x0D, 0x85...0x85, 0x2028...0x2029]

    /// The set of the scalars in `ranges` (in any order, overlapping or not), or of every
    /// scalar outside them when `negated`.
    init(_ ranges: [ClosedRange<UInt32>], negated: Bool = false) {
        var members = Self.normalised(ranges)
        if negated { members = Self.complement(members) }
        var low: UInt64 = 0
        var high: UInt64 = 0
        var rest: [ClosedRange<UInt32>] = []
        for range in members {
            if range.lowerBound < 0x80 {
                for scalar in range.lowerBound...min(range.upperBound, 0x7F) {
                    if scalar < 64 { low |= 1 << UInt64(scalar) } else { high |= 1 << UInt64(scalar - 64) }
                }
            }
            if range.upperBound >= 0x80 { rest.append(max(range.lowerBound, 0x80)...range.upperBound) }
        }
        self.low = low
        self.high = high
        self.ranges = rest
    }

    /// Whether `scalar` (a scalar value) is a member.
    @inline(__always)
    func contains(_ scalar: UInt32) -> Bool {
        if scalar < 64 { return low & (1 << UInt64(scalar)) != 0 }
        if scalar < 128 { return high & (1 << UInt64(scalar - 64)) != 0 }
        return containsAboveASCII(scalar)
    }

    private func containsAboveASCII(_ scalar: UInt32) -> Bool {
        var lower = 0
        var upper = ranges.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if scalar < ranges[middle].lowerBound {
                upper = middle
            } else if scalar > ranges[middle].upperBound {
                lower = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// `ranges` sorted and merged where they overlap or touch.
    static func normalised(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var merged: [ClosedRange<UInt32>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// Every scalar value up to ``maximum`` outside `ranges` (normalised).
    static func complement(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in normalised(ranges) {
            if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
            guard range.upperBound < maximum else { return result }
            next = range.upperBound + 1
        }
        result.append(next...maximum)
        return result
    }
}
