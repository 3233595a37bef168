@testable import Junction
@testable import JunctionTooling
import Testing

/// The sample values of `:param(regex)` segments: what the regex accepts, or nothing.
@Suite struct RegexSamplerTests {
    @Test(arguments: [
        #"[A-Z]{2}[0-9]{6}"#, #"\d+"#, #"[a-z]+"#, #"[a-z0-9_-]{3,16}"#, #"v\d+(\.\d+)?"#, #"(?:draft|final)-\w+"#,
        #"[^/.]+\.json"#, #"^\S+$"#, #"(?<year>\d{4})-\d{2}"#, #"a|b|c"#, #"[\w.~-]+"#, #"x*y+?"#,
    ])
    func everyCandidateMatchesWhole(regex: String) throws {
        let candidates = RegexSampler.candidates(for: regex)
        #expect(!candidates.isEmpty)
        let compiled = try RouteRegex(regex)
        for candidate in candidates {
            #expect(compiled.matchesWhole(candidate), "\(candidate)")
        }
    }

    @Test(arguments: [#"(?i)abc"#, #"(?=a)a"#, #"(a)\1"#, #"\bword\b"#, #"\p{L}+"#, #"[[:alpha:]]+"#, #"a{2"#])
    func givesUpOnSyntaxItDoesNotRead(regex: String) {
        #expect(RegexSampler.candidates(for: regex).isEmpty)
    }

    @Test func typedAndRegexConstraintsMustBothHold() {
        #expect(ParameterSamples.distinctive.values(type: .int, regex: #"\d{3}"#) == ["000", "999", "111"])
        #expect(ParameterSamples.distinctive.values(type: .int, regex: "[a-z]+") == nil)
        #expect(ParameterSamples.distinctive.values(type: .string, regex: nil) == ["x7q", "~x.7-_", "x y!"])
    }
}
