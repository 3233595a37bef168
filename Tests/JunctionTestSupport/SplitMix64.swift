/// A tiny seeded generator (Steele, Lea & Flood's SplitMix64), so random tests replay the
/// same inputs on every run and platform.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound`, independent of the standard library's sampling algorithm.
    public mutating func next(below bound: Int) -> Int {
        precondition(bound > 0)
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// Whether an event of probability `percent` / 100 happens.
    public mutating func chance(_ percent: Int) -> Bool { next(below: 100) < percent }

    /// One element of `elements`.
    public mutating func pick<C: RandomAccessCollection>(_ elements: C) -> C.Element where C.Index == Int {
        elements[elements.startIndex + next(below: elements.count)]
    }
}
