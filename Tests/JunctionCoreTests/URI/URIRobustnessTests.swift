import JunctionCore
import JunctionFuzzTargets
import Testing
import JunctionTestSupport

/// Seeded random inputs: parsing never crashes, and whatever parses holds together.
@Suite struct URIRobustnessTests {
    static let base = "http://a/b/c/d;p?q"
    /// A base without an authority, where resolution must guard paths that start with "//".
    static let opaqueBase = "myapp:/user/42"
    static let iterations = 20_000

    static let starts = ["", "", "http://", "myapp://", "MyApp:", "//", "/", "?", "#", "HTTP://u:p@", "s:"]

    static let tokens: [String] =
        Array("abcXYZ019-._~:/?#[]@!$&'()*+,;=% \"<>{}|\\^`").map(String.init) + [
            "é", "你", "😀", "\u{301}", "/\u{301}", ".\u{301}", ":\u{301}", "\t", "\n", "\r", "\u{0}", "\u{7F}",
            "%41", "%2F", "%2f", "%2B", "%25", "%C3%A9", "%E4%BD%A0", "%F0%9F%98%80",
            "%zz", "%4", "%C3", "%ED%A0%80", "%C0%AF", "%F4%90%80%80",
            "//", "..", ".", "./", "../", "/./", "/../", "/..", "/.",
            "[::1]", "[v7.x]", "[fe80::1%25en0]", "[1:2:3]", "[", "]",
            "http:", "myapp://", "HTTP://", ":8080", ":", ":99999", "@", "u:p@",
            "?a=1&b=2", "&", "=", "+", "#frag", "1.2.3.4", "256.0.0.1", "localhost",
        ]

    static func randomInput(_ rng: inout SplitMix64) -> String {
        if rng.next(below: 5) == 0 {
            // Arbitrary bytes; invalid UTF-8 becomes U+FFFD, as for any Swift string.
            let bytes = (0..<rng.next(below: 24)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            return String(decoding: bytes, as: UTF8.self)
        }
        var text = rng.pick(starts)
        for _ in 0..<rng.next(below: 16) {
            text += rng.pick(tokens)
        }
        return text
    }

    @Test func generatorReplaysTheReferenceSequence() {
        var rng = SplitMix64(seed: 0)
        #expect(
            [rng.next(), rng.next(), rng.next()] == [
                0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F,
            ])
    }

    @Test func neverCrashesAndEveryParsedURIHoldsTogether() throws {
        let bases = [try URI(Self.base), try URI(Self.opaqueBase)]
        var rng = SplitMix64(seed: 0x5EED_0F_0123_4567)
        var problems: [String] = []
        var parsed = 0
        for _ in 0..<Self.iterations {
            let input = Self.randomInput(&rng)
            var strictURI: URI?
            for mode in [URI.ParsingMode.strict, .lenient] {
                do {
                    let uri = try URI(input, mode: mode)
                    if mode == .strict { strictURI = uri } else { parsed += 1 }
                    for base in bases {
                        problems += URIConsistency.problems(of: uri, parsedFrom: input, mode: mode, base: base)
                    }
                } catch {
                    if mode == .lenient, strictURI != nil {
                        problems.append("lenient rejects what strict accepts: \(input.debugDescription)")
                    }
                    problems += URIConsistency.problems(of: error, input: input)
                }
            }
            if problems.count > 20 { break }
        }
        for problem in problems.prefix(20) {
            Issue.record(Comment(rawValue: problem))
        }
        // The alphabet must reach both outcomes often enough to mean something.
        #expect(parsed > Self.iterations / 5)
        #expect(parsed < Self.iterations * 4 / 5)
    }
}
