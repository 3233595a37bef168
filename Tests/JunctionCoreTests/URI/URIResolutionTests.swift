import JunctionCore
import Testing

@Suite struct URIResolutionTests {
    static let base = "http://a/b/c/d;p?q"

    /// RFC 3986 §5.4.1, every line.
    static let normalExamples: [(String, String)] = [
        ("g:h", "g:h"),
        ("g", "http://a/b/c/g"),
        ("./g", "http://a/b/c/g"),
        ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"),
        ("//g", "http://g"),
        ("?y", "http://a/b/c/d;p?y"),
        ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"),
        ("g#s", "http://a/b/c/g#s"),
        ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"),
        ("g;x", "http://a/b/c/g;x"),
        ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"),
        (".", "http://a/b/c/"),
        ("./", "http://a/b/c/"),
        ("..", "http://a/b/"),
        ("../", "http://a/b/"),
        ("../g", "http://a/b/g"),
        ("../..", "http://a/"),
        ("../../", "http://a/"),
        ("../../g", "http://a/g"),
    ]

    /// RFC 3986 §5.4.2, every line (the strict reading for "http:g").
    static let abnormalExamples: [(String, String)] = [
        ("../../../g", "http://a/g"),
        ("../../../../g", "http://a/g"),
        ("/./g", "http://a/g"),
        ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."),
        (".g", "http://a/b/c/.g"),
        ("g..", "http://a/b/c/g.."),
        ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"),
        ("./g/.", "http://a/b/c/g/"),
        ("g/./h", "http://a/b/c/g/h"),
        ("g/../h", "http://a/b/c/h"),
        ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("g;x=1/../y", "http://a/b/c/y"),
        ("g?y/./x", "http://a/b/c/g?y/./x"),
        ("g?y/../x", "http://a/b/c/g?y/../x"),
        ("g#s/./x", "http://a/b/c/g#s/./x"),
        ("g#s/../x", "http://a/b/c/g#s/../x"),
        ("http:g", "http:g"),
    ]

    @Test(arguments: normalExamples)
    func resolvesTheNormalExamplesOfRFC3986(reference: String, target: String) throws {
        #expect(try URI(Self.base).resolving(reference).string == target)
    }

    @Test(arguments: abnormalExamples)
    func resolvesTheAbnormalExamplesOfRFC3986(reference: String, target: String) throws {
        #expect(try URI(Self.base).resolving(reference).string == target)
    }

    @Test(arguments: normalExamples + abnormalExamples)
    func resolvesAParsedReferenceLikeItsText(reference: String, target: String) throws {
        let base = try URI(Self.base)
        #expect(base.resolving(try URI(reference)) == (try base.resolving(reference)))
    }

    @Test(
        arguments: [
            ("myapp://app/user/42", "../settings", "myapp://app/settings"),
            ("myapp://app/user/42", "43?tab=posts", "myapp://app/user/43?tab=posts"),
            ("myapp://app/user/42?tab=posts", "#top", "myapp://app/user/42?tab=posts#top"),
            ("myapp://app", "user/42", "myapp://app/user/42"),
            ("myapp://app", "?x=1", "myapp://app?x=1"),
            ("myapp:///user/42", "43", "myapp:///user/43"),
            ("myapp:user/42", "43", "myapp:user/43"),
            ("http://a/b/c/d;p?q", "//u@h:81/x/../y", "http://u@h:81/y"),
            ("http://a/b/c/d;p?q", "HTTPS://A/./x", "HTTPS://A/x"),
            ("http://a/b/c/d;p?q", "caf%C3%A9/../%41", "http://a/b/c/%41"),
            ("http://a/b/c/d;p?q", "..//g", "http://a/b//g"),
            ("http://a/b/c/d;p?q", "/..//g", "http://a//g"),
        ] as [(String, String, String)])
    func resolvesDeepLinkReferences(base: String, reference: String, target: String) throws {
        #expect(try URI(base).resolving(reference).string == target)
    }

    @Test func keepsAPathThatStartsWithTwoSlashesFromReadingAsAnAuthority() throws {
        // Without an authority, "//g" would re-parse as host "g" (RFC 3986 §5.3 leaves this open).
        let target = try URI("a:/b").resolving("/..//g")
        #expect(target.string == "a:/.//g")
        #expect(!target.hasAuthority)
        #expect(URI.removingDotSegments(target.percentEncodedPath) == "//g")
    }

    @Test func keepsAFirstSegmentWithAColonFromReadingAsAScheme() throws {
        // Only reachable from a relative base, which RFC 3986 does not define, but it must not
        // produce "a:b", which would re-parse with scheme "a".
        let target = try URI("y").resolving("./a:b")
        #expect(target.string == "./a:b")
        #expect(target.scheme == nil)
        #expect(target.pathSegments == [".", "a:b"])
    }

    /// Regression: resolution compared Characters, and "/" or "." followed by a combining
    /// mark is one Character, so such a "/" was no delimiter. Against a base without an
    /// authority, "/..//\u{301} x" then came out as "a://\u{301} x", which does not parse,
    /// and `resolving` stopped the process.
    @Test(
        arguments: [
            ("http://a/b/c/d;p?q", "../\u{301}x", "http://a/b/\u{301}x"),
            ("http://a/b/c/d;p?q", "./\u{301}", "http://a/b/c/\u{301}"),
            ("http://a/b/c/d;p?q", "/\u{301}x", "http://a/\u{301}x"),
            ("http://a/b/c/d;p?q", "g/.\u{301}/..\u{301}", "http://a/b/c/g/.\u{301}/..\u{301}"),
            ("http://a/b/\u{301}", "g", "http://a/b/g"),
            ("a:/b", "/..//\u{301}x", "a:/.//\u{301}x"),
            ("a:/b", "/..//\u{301} x", "a:/.//\u{301} x"),
        ] as [(String, String, String)])
    func treatsASlashBeforeACombiningMarkAsADelimiter(base: String, reference: String, target: String) throws {
        let resolved = try URI(base).resolving(reference)
        #expect(Array(resolved.string.unicodeScalars) == Array(target.unicodeScalars))
        #expect(resolved.hasAuthority == base.hasPrefix("http"))
    }

    @Test func throwsWhenTheReferenceTextDoesNotParse() throws {
        let base = try URI(Self.base)
        let error = #expect(throws: URIError.self) { try base.resolving("g/%G1") }
        #expect(error?.code == .invalidPercentEscape)
        #expect(error?.offset == 2)
    }

    /// RFC 3986 §5.2.4, its two worked examples first.
    @Test(arguments: [
        ("/a/b/c/./../../g", "/a/g"),
        ("mid/content=5/../6", "mid/6"),
        ("", ""),
        ("/", "/"),
        (".", ""),
        ("..", ""),
        ("./", ""),
        ("../", ""),
        ("/.", "/"),
        ("/..", "/"),
        ("/a/.", "/a/"),
        ("/a/..", "/"),
        ("/a/b/..", "/a/"),
        ("/a/b/../", "/a/"),
        ("/a/./b", "/a/b"),
        ("/a//../b", "/a/b"),
        ("/../../a", "/a"),
        ("../a", "a"),
        ("./a", "a"),
        ("a/..", "/"),
        ("a/../b", "/b"),
        ("/.../a", "/.../a"),
        ("/a/.b/..c/b.", "/a/.b/..c/b."),
        ("/a/%2E%2E/b", "/a/%2E%2E/b"),
        ("//a/../b", "//b"),
        // "/" and "." are delimiters even when a combining mark follows them.
        ("../\u{301}", "\u{301}"),
        ("/b/c/../\u{301}x", "/b/\u{301}x"),
        ("/a/.\u{301}/..\u{301}", "/a/.\u{301}/..\u{301}"),
    ])
    func removesDotSegments(path: String, result: String) {
        #expect(Array(URI.removingDotSegments(path).unicodeScalars) == Array(result.unicodeScalars))
    }
}
