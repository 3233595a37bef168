import JunctionCore
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
                        problems += Self.inconsistencies(of: uri, parsedFrom: input, mode: mode, base: base)
                    }
                } catch {
                    if mode == .lenient, strictURI != nil {
                        problems.append("lenient rejects what strict accepts: \(input.debugDescription)")
                    }
                    problems += Self.inconsistencies(of: error, input: input)
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

    static func inconsistencies(of uri: URI, parsedFrom input: String, mode: URI.ParsingMode, base: URI) -> [String] {
        var problems: [String] = []
        func require(_ condition: Bool, _ what: String) {
            if !condition { problems.append("\(what): \(input.debugDescription) (\(mode))") }
        }

        // Every accessor answers (the first base suffices for these).
        _ = (uri.isAbsolute, uri.userinfo, uri.percentEncodedUserinfo, uri.percentEncodedHost, uri.path)
        _ = (uri.query.grouped, uri.queryItems(plusAsSpace: false).items, uri.description)
        let segments = uri.pathSegments
        let host = uri.host
        require(uri.string == input, "string differs from input")
        require((uri.hostKind != nil) == uri.hasAuthority, "hostKind without authority")
        require((host != nil) == uri.hasAuthority, "host without authority")
        require(uri.port.map { (0...65535).contains($0) } ?? true, "port out of range")
        require(uri.fragment == nil || uri.percentEncodedFragment != nil, "fragment without its text")

        // The percent-encoded components are the input, cut up.
        var text = ""
        if let scheme = uri.scheme { text += scheme + ":" }
        if let authority = uri.percentEncodedAuthority { text += "//" + authority }
        text += uri.percentEncodedPath
        if let query = uri.percentEncodedQuery { text += "?" + query }
        if let fragment = uri.percentEncodedFragment { text += "#" + fragment }
        let schemeLength = uri.scheme?.utf8.count ?? 0
        let folded = (uri.scheme ?? "") + String(decoding: input.utf8.dropFirst(schemeLength), as: UTF8.self)
        require(text.utf8.elementsEqual(folded.utf8), "components do not reassemble into the input")

        // Segments are the decoded path, split where the text has "/".
        // Compared as bytes: "/" then a combining mark is one Character.
        let rootless = segments.joined(separator: "/")
        let expectedPath = uri.percentEncodedPath.utf8.first == UInt8(ascii: "/") ? "/" + rootless : rootless
        require(uri.path.utf8.elementsEqual(expectedPath.utf8), "segments disagree with path")

        // Text that parsed once parses again, the same way.
        if let again = try? URI(uri.string, mode: mode) {
            require(again == uri && again.pathSegments == segments && again.host == host, "re-parse differs")
        } else {
            require(false, "does not re-parse")
        }

        // Resolution yields a URI that re-parses the same way, with its dot-segments gone.
        let target = base.resolving(uri)
        if let again = try? URI(target.string) {
            require(
                again.hasAuthority == target.hasAuthority && again.percentEncodedPath == target.percentEncodedPath,
                "resolved \(target.string.debugDescription) re-parses differently")
        } else {
            require(false, "resolved \(target.string.debugDescription) does not re-parse")
        }
        require(target.isAbsolute, "resolved target is not absolute")
        require(
            target.hasAuthority == (uri.hasAuthority || (uri.scheme == nil && base.hasAuthority)),
            "resolution against \(base) gained or lost an authority")
        require(target.percentEncodedFragment == uri.percentEncodedFragment, "resolution lost the fragment")
        if target.hasAuthority {
            let path = target.percentEncodedPath
            require(URI.removingDotSegments(path) == path, "resolved path \(path.debugDescription) keeps dot-segments")
        }
        return problems
    }

    static func inconsistencies(of error: URIError, input: String) -> [String] {
        var problems: [String] = []
        if error.input != input { problems.append("error names another input: \(input.debugDescription)") }
        if !(0..<input.utf8.count).contains(error.offset) {
            problems.append("error offset \(error.offset) outside the input: \(input.debugDescription)")
        }
        if error.description.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            problems.append("raw control character in message: \(error.description.debugDescription)")
        }
        return problems
    }
}
