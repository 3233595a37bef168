@testable import JunctionCore
import Testing

/// ``RouteRegex`` against Swift's `Regex` (set to match scalars, with ASCII shorthands)
/// on seeded random regexes and subjects: 24,000 comparisons, the regexes two groups deep
/// at most and the subjects six scalars long — tame enough for a backtracker (three
/// groups deep, some take Swift's `Regex` seconds).
@Suite struct RouteRegexDifferentialTests {
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func answersAsSwiftRegexDoes(seed: UInt64) throws {
        var generator = RegexGenerator(seed: seed)
        var disagreements: [String] = []
        var compared = 0
        for _ in 0..<500 {
            let source = generator.regex()
            let ours = try RouteRegex(source)
            let reference = try Regex(source)
                .matchingSemantics(.unicodeScalar)
                .asciiOnlyDigits().asciiOnlyWordCharacters().asciiOnlyWhitespace()
            for _ in 0..<12 {
                let subject = generator.subject()
                let expected = (try reference.wholeMatch(in: subject)) != nil
                compared += 1
                if ours.matchesWhole(subject) != expected {
                    disagreements.append("/\(source)/ on \(subject.debugDescription): Swift says \(expected)")
                }
            }
        }
        #expect(compared == 6000)
        let firstDisagreements = disagreements.prefix(10)
        #expect(firstDisagreements.isEmpty, "\(disagreements.count) disagreements")
    }
}
