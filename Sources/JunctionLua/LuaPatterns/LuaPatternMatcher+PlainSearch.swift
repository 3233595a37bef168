internal import Foundation  // memchr, memcmp

extension LuaPatternMatcher {
    /// Whether the pattern has none of the bytes that make it more than plain text, so
    /// `find` may search for it as it is. Lua's `nospecials`; one step per byte read.
    mutating func hasNoSpecials() -> Bool {
        for index in 0..<patternLength {
            guard spend(1) else { return false }
            switch pattern[index] {
            case UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"),
                UInt8(ascii: "."), UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "%"), UInt8(ascii: "-"):
                return false
            default:
                continue
            }
        }
        return true
    }

    /// The first index from `start` where the pattern's bytes occur in the subject, as they
    /// are; `nil` when they do not, or when ``stop`` is set. Lua's `lmemfind`.
    ///
    /// One step per byte scanned for the pattern's first byte, and the pattern's length
    /// for each place where that byte is found (the bytes a comparison may read).
    mutating func findPlain(from start: Int) -> Int? {
        guard patternLength > 0 else { return start }  // the empty string is everywhere
        guard patternLength <= subjectLength - start else { return nil }
        let lastStart = subjectLength - patternLength
        let first = Int32(pattern[0])
        var position = start
        while position <= lastStart {
            let window = lastStart - position + 1
            // memchr reads no further than the allowance reaches.
            let reach = min(window, max(allowance - steps, 0))
            guard let hit = memchr(subject + position, first, reach) else {
                _ = spend(window)  // beyond the allowance when the scan was cut short
                return nil
            }
            let found = UnsafeRawPointer(subject).distance(to: UnsafeRawPointer(hit))
            guard spend(found - position + patternLength) else { return nil }
            if memcmp(subject + found + 1, pattern + 1, patternLength - 1) == 0 { return found }
            position = found + 1
        }
        return nil
    }
}
