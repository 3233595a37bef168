import Testing

@testable import JunctionLua
import JunctionTestSupport

/// The steps ``LuaPatternMatcher`` charges are an upper bound of the work matching does: on
/// random and on hostile patterns, never fewer than ``CountingReferenceMatcher`` counts —
/// which finds the same matches and captures.
@Suite struct PatternStepBoundTests {
    /// What the sandbox's matcher finds for `pattern` (a leading `^` anchors it) in
    /// `subject` from `start`, its captures, and the steps it took; `nil` when it stopped
    /// on an error.
    private static func sandboxSearch(_ pattern: [UInt8], in subject: [UInt8], from start: Int)
        -> (found: (start: Int, end: Int)?, captures: [CountingReferenceMatcher.Capture], steps: Int)?
    {
        let anchored = pattern.first == UInt8(ascii: "^")
        // A NUL after each, as Lua strings have: the matcher may read it.
        let subjectBytes = subject + [0]
        let patternBytes = Array(anchored ? pattern.dropFirst() : pattern[...]) + [0]
        return subjectBytes.withUnsafeBufferPointer { subjectBuffer in
            patternBytes.withUnsafeBufferPointer { patternBuffer in
                var matcher = LuaPatternMatcher(
                    subject: subjectBuffer.baseAddress!, subjectLength: subject.count,
                    pattern: patternBuffer.baseAddress!, patternLength: patternBytes.count - 1, allowance: .max)
                let found = matcher.search(from: start, anchored: anchored)
                guard matcher.stop == nil else { return nil }
                let captures = (0..<matcher.level).map { index in
                    CountingReferenceMatcher.Capture(
                        start: matcher.captures[index].start, length: matcher.captures[index].length)
                }
                return (found, captures, matcher.steps)
            }
        }
    }

    /// Compares one search; records an issue when the results differ or the sandbox's
    /// steps are fewer than the reference's work. Returns whether the case counted.
    @discardableResult
    private static func check(_ pattern: [UInt8], in subject: [UInt8], from start: Int) -> Bool {
        let anchored = pattern.first == UInt8(ascii: "^")
        guard
            var reference = CountingReferenceMatcher(
                pattern: Array(anchored ? pattern.dropFirst() : pattern[...]), subject: subject),
            let sandbox = sandboxSearch(pattern, in: subject, from: start)
        else { return false }
        let found = reference.search(from: start, anchored: anchored)
        guard !reference.invalid else { return false }
        let described =
            "pattern \(String(decoding: pattern, as: UTF8.self).debugDescription) "
            + "in \(String(decoding: subject, as: UTF8.self).debugDescription) from \(start)"
        #expect(sandbox.found?.start == found?.start && sandbox.found?.end == found?.end, "\(described)")
        if found != nil { #expect(sandbox.captures == reference.captures, "\(described)") }
        #expect(
            sandbox.steps >= reference.work, "\(described): \(sandbox.steps) steps charged, \(reference.work) counted")
        return true
    }

    @Test(arguments: [11 as UInt64, 12, 13, 14])
    func chargesAtLeastTheWorkOfRandomSearches(seed: UInt64) {
        var generator = PatternCaseGenerator(seed: seed)
        var random = SplitMix64(seed: seed)
        var checked = 0
        for _ in 0..<3_000 {
            let subject = generator.subject()
            if Self.check(generator.pattern(), in: subject, from: random.next(below: subject.count + 1)) {
                checked += 1
            }
        }
        #expect(checked > 1_000)  // most random patterns are well formed
    }

    static let hostile: [(pattern: String, subject: String)] = [
        (String(repeating: "a?", count: 12) + String(repeating: "a", count: 12), String(repeating: "a", count: 12)),
        (
            String(repeating: "[ab]?", count: 10) + String(repeating: "[ab]", count: 10),
            String(repeating: "ab", count: 5)
        ),
        (".-.-.-.-b", String(repeating: "a", count: 30)),
        ("a*a*a*b", String(repeating: "a", count: 30)),
        ("(a*)%1%1b", String(repeating: "a", count: 40)),
        ("(.-)%1$", String(repeating: "ab", count: 20) + "x"),
        ("%b()", String(repeating: "(", count: 50)),
        ("%f[%a]%a+%f[%A]x", String(repeating: "abc ", count: 10)),
        ("^(%w+)=(%w*)&?", "name=value&other=thing"),
        ("[%w%.%-]+@[%w%-]+%.%a+", "mail me at some.one@example.org today"),
    ]

    @Test(arguments: hostile.indices)
    func chargesAtLeastTheWorkOfHostileSearches(index: Int) {
        let (pattern, subject) = Self.hostile[index]
        #expect(Self.check(Array(pattern.utf8), in: Array(subject.utf8), from: 0))
    }

    @Test(arguments: [
        ("aab", "aaaaaaaaaaaaaaab"), ("b", "aaaaaaaaab"), ("aaaab", "aaabaaabaaaab"), ("", "abc"), ("abc", "ab"),
        (String(repeating: "a", count: 30) + "b", String(repeating: "a", count: 100)),
    ])
    func chargesAtLeastTheWorkOfPlainSearches(needle: String, subject: String) {
        let needleBytes = Array(needle.utf8)
        let subjectBytes = Array(subject.utf8)
        let (expected, work) = CountingReferenceMatcher.plainFind(needleBytes, in: subjectBytes, from: 0)
        let (found, steps) = (subjectBytes + [0]).withUnsafeBufferPointer { subjectBuffer in
            (needleBytes + [0]).withUnsafeBufferPointer { needleBuffer in
                var matcher = LuaPatternMatcher(
                    subject: subjectBuffer.baseAddress!, subjectLength: subjectBytes.count,
                    pattern: needleBuffer.baseAddress!, patternLength: needleBytes.count, allowance: .max)
                return (matcher.findPlain(from: 0), matcher.steps)
            }
        }
        #expect(found == expected)
        #expect(steps >= work, "\(steps) steps charged, \(work) counted")
    }

    @Test func stopsOnceTheStepsExceedTheAllowance() {
        let subject = Array(String(repeating: "a", count: 30).utf8) + [0]
        let pattern = Array((String(repeating: "a?", count: 30) + String(repeating: "a", count: 30)).utf8) + [0]
        subject.withUnsafeBufferPointer { subjectBuffer in
            pattern.withUnsafeBufferPointer { patternBuffer in
                var matcher = LuaPatternMatcher(
                    subject: subjectBuffer.baseAddress!, subjectLength: 30,
                    pattern: patternBuffer.baseAddress!, patternLength: pattern.count - 1, allowance: 10_000)
                #expect(matcher.search(from: 0, anchored: false) == nil)
                #expect(matcher.stop == .budget)
                // Past the allowance only the unwinding counts: no work is done after it.
                #expect(matcher.steps > 10_000 && matcher.steps < 10_100)
            }
        }
    }
}
