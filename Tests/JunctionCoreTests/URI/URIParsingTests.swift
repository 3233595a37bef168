import JunctionCore
import Testing

@Suite struct URIParsingTests {
    /// What one input should split into. `host == nil` means no authority; `path` is as written.
    struct Case: Sendable, CustomTestStringConvertible {
        var input: String
        var scheme: String? = nil
        var userinfo: String? = nil
        var host: String? = nil
        var hostKind: URI.HostKind = .registeredName
        var port: Int? = nil
        var path = ""
        var segments: [String] = []
        var query: String? = nil
        var fragment: String? = nil
        /// Whether the input is also valid RFC 3986 (so strict parsing must agree).
        var isStrictlyValid = true

        var testDescription: String { input.debugDescription }
    }

    static let deepLinks: [Case] = [
        Case(
            input: "myapp://user/42?tab=posts#top", scheme: "myapp", host: "user",
            path: "/42", segments: ["42"], query: "tab=posts", fragment: "top"),
        // IP literals
        Case(
            input: "http://[::1]:8080/x", scheme: "http", host: "::1", hostKind: .ipv6, port: 8080,
            path: "/x", segments: ["x"]),
        Case(
            input: "http://[fe80::1%25en0]/", scheme: "http", host: "fe80::1%en0", hostKind: .ipv6,
            path: "/", segments: [""]),
        Case(
            input: "http://[2001:db8::7]/", scheme: "http", host: "2001:db8::7", hostKind: .ipv6,
            path: "/", segments: [""]),
        Case(
            input: "http://[2001:DB8::7]/", scheme: "http", host: "2001:db8::7", hostKind: .ipv6,
            path: "/", segments: [""]),
        Case(
            input: "http://[v7.fe:ok]/", scheme: "http", host: "v7.fe:ok", hostKind: .ipvFuture,
            path: "/", segments: [""]),
        Case(
            input: "http://u@[::1]:80/", scheme: "http", userinfo: "u", host: "::1", hostKind: .ipv6, port: 80,
            path: "/", segments: [""]),
        // IPv4 or registered name
        Case(input: "http://1.2.3.4/", scheme: "http", host: "1.2.3.4", hostKind: .ipv4, path: "/", segments: [""]),
        Case(input: "http://01.2.3.4/", scheme: "http", host: "01.2.3.4", path: "/", segments: [""]),
        Case(input: "http://256.1.1.1/", scheme: "http", host: "256.1.1.1", path: "/", segments: [""]),
        // userinfo
        Case(
            input: "myapp://u:p%40ss@host/", scheme: "myapp", userinfo: "u:p@ss", host: "host",
            path: "/", segments: [""]),
        Case(
            input: "http://evil.com@good.com/", scheme: "http", userinfo: "evil.com", host: "good.com",
            path: "/", segments: [""]),
        Case(input: "http://@a/", scheme: "http", userinfo: "", host: "a", path: "/", segments: [""]),
        Case(
            input: "http://a@b@host/", scheme: "http", userinfo: "a@b", host: "host", path: "/", segments: [""],
            isStrictlyValid: false),
        // ports
        Case(input: "http://a:/", scheme: "http", host: "a", path: "/", segments: [""]),
        Case(input: "http://a:0/", scheme: "http", host: "a", port: 0, path: "/", segments: [""]),
        Case(input: "http://a:65535", scheme: "http", host: "a", port: 65535),
        Case(input: "http://a:0080?x", scheme: "http", host: "a", port: 80, query: "x"),
        // empty host, no authority
        Case(input: "myapp:///user/42", scheme: "myapp", host: "", path: "/user/42", segments: ["user", "42"]),
        Case(input: "myapp:user/42", scheme: "myapp", path: "user/42", segments: ["user", "42"]),
        Case(input: "file:///etc/hosts", scheme: "file", host: "", path: "/etc/hosts", segments: ["etc", "hosts"]),
        Case(
            input: "mailto:someone@example.com", scheme: "mailto", path: "someone@example.com",
            segments: ["someone@example.com"]),
        Case(input: "urn:isbn:0451450523", scheme: "urn", path: "isbn:0451450523", segments: ["isbn:0451450523"]),
        Case(input: "myapp:", scheme: "myapp"),
        // relative references
        Case(input: "//host", host: "host"),
        Case(input: "//", host: ""),
        Case(input: "/p", path: "/p", segments: ["p"]),
        Case(input: "p", path: "p", segments: ["p"]),
        Case(input: "../x", path: "../x", segments: ["..", "x"]),
        Case(input: "?q", query: "q"),
        Case(input: "#f", fragment: "f"),
        Case(input: ""),
        // empty and odd paths
        Case(input: "http://a", scheme: "http", host: "a"),
        Case(input: "myapp://a//b", scheme: "myapp", host: "a", path: "//b", segments: ["", "b"]),
        Case(input: "myapp://a/b/", scheme: "myapp", host: "a", path: "/b/", segments: ["b", ""]),
        Case(input: "http://a/b;p=1/c", scheme: "http", host: "a", path: "/b;p=1/c", segments: ["b;p=1", "c"]),
        // queries and fragments
        Case(input: "myapp://app?", scheme: "myapp", host: "app", query: ""),
        Case(input: "myapp://app#", scheme: "myapp", host: "app", fragment: ""),
        Case(input: "http://a/?#", scheme: "http", host: "a", path: "/", segments: [""], query: "", fragment: ""),
        Case(input: "myapp://app?a=1&a=2&b&=x&&c=", scheme: "myapp", host: "app", query: "a=1&a=2&b&=x&&c="),
        Case(input: "myapp://app#/user/42?x=1", scheme: "myapp", host: "app", fragment: "/user/42?x=1"),
        Case(
            input: "http://a?x=1#y?z#w", scheme: "http", host: "a", query: "x=1", fragment: "y?z#w",
            isStrictlyValid: false),
        Case(input: "myapp://a#caf%C3%A9", scheme: "myapp", host: "a", fragment: "café"),
        // decoding per segment
        Case(input: "myapp://a/caf%C3%A9", scheme: "myapp", host: "a", path: "/caf%C3%A9", segments: ["café"]),
        Case(input: "myapp://a/caf%c3%a9", scheme: "myapp", host: "a", path: "/caf%c3%a9", segments: ["café"]),
        Case(
            input: "myapp://search/你好", scheme: "myapp", host: "search", path: "/你好", segments: ["你好"],
            isStrictlyValid: false),
        Case(input: "myapp://a/x%2Fy/z", scheme: "myapp", host: "a", path: "/x%2Fy/z", segments: ["x/y", "z"]),
        Case(input: "myapp://a/1%2B1", scheme: "myapp", host: "a", path: "/1%2B1", segments: ["1+1"]),
        Case(input: "myapp://a/1+1", scheme: "myapp", host: "a", path: "/1+1", segments: ["1+1"]),
        Case(input: "myapp://a/%20+%2B", scheme: "myapp", host: "a", path: "/%20+%2B", segments: [" ++"]),
        Case(
            input: "myapp://app/open/https%3A%2F%2Fexample.com%2Fx", scheme: "myapp", host: "app",
            path: "/open/https%3A%2F%2Fexample.com%2Fx", segments: ["open", "https://example.com/x"]),
        Case(
            input: "myapp://app/open?url=https://example.com/a?b=1", scheme: "myapp", host: "app",
            path: "/open", segments: ["open"], query: "url=https://example.com/a?b=1"),
        // case folding: scheme and host only
        Case(
            input: "MyApp://Example.COM/Path", scheme: "myapp", host: "example.com", path: "/Path", segments: ["Path"]),
        Case(input: "HTTP://A/", scheme: "http", host: "a", path: "/", segments: [""]),
        Case(input: "http://%61%62.com/", scheme: "http", host: "ab.com", path: "/", segments: [""]),
        Case(input: "a+b-c.d:x", scheme: "a+b-c.d", path: "x", segments: ["x"]),
        // lenient extras
        Case(
            input: "http://bücher.de/", scheme: "http", host: "bücher.de", path: "/", segments: [""],
            isStrictlyValid: false),
        Case(
            input: "myapp://a/b c?q=a b#x y", scheme: "myapp", host: "a", path: "/b c", segments: ["b c"],
            query: "q=a b", fragment: "x y", isStrictlyValid: false),
    ]

    @Test(arguments: deepLinks)
    func splitsComponents(_ c: Case) throws {
        let uri = try URI(c.input)
        expect(uri, matches: c)
    }

    @Test(arguments: deepLinks.filter(\.isStrictlyValid))
    func strictModeSplitsValidInputTheSameWay(_ c: Case) throws {
        let uri = try URI(c.input, mode: .strict)
        expect(uri, matches: c)
    }

    @Test(arguments: deepLinks.filter { !$0.isStrictlyValid })
    func strictModeRejectsWhatOnlyLenientModeAccepts(_ c: Case) {
        #expect(throws: URIError.self) { try URI(c.input, mode: .strict) }
    }

    private func expect(_ uri: URI, matches c: Case, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(uri.string == c.input, sourceLocation: sourceLocation)
        #expect(uri.scheme == c.scheme, "scheme", sourceLocation: sourceLocation)
        #expect(uri.isAbsolute == (c.scheme != nil), "isAbsolute", sourceLocation: sourceLocation)
        #expect(uri.hasAuthority == (c.host != nil), "hasAuthority", sourceLocation: sourceLocation)
        #expect(uri.userinfo == c.userinfo, "userinfo", sourceLocation: sourceLocation)
        #expect(uri.host == c.host, "host", sourceLocation: sourceLocation)
        #expect(uri.hostKind == (c.host == nil ? nil : c.hostKind), "hostKind", sourceLocation: sourceLocation)
        #expect(uri.port == c.port, "port", sourceLocation: sourceLocation)
        #expect(uri.percentEncodedPath == c.path, "percentEncodedPath", sourceLocation: sourceLocation)
        #expect(uri.pathSegments == c.segments, "pathSegments", sourceLocation: sourceLocation)
        #expect(uri.percentEncodedQuery == c.query, "percentEncodedQuery", sourceLocation: sourceLocation)
        #expect(uri.fragment == c.fragment, "fragment", sourceLocation: sourceLocation)
    }

    @Test func keepsTheTextAsWrittenInPercentEncodedComponents() throws {
        let uri = try URI("HTTP://Us%65r:p%40ss@Example.COM:8080/caf%C3%A9/x%2Fy?q=a+b%26c#fr%61g")
        #expect(uri.percentEncodedAuthority == "Us%65r:p%40ss@Example.COM:8080")
        #expect(uri.percentEncodedUserinfo == "Us%65r:p%40ss")
        #expect(uri.userinfo == "User:p@ss")
        #expect(uri.percentEncodedHost == "Example.COM")
        #expect(uri.host == "example.com")
        #expect(uri.percentEncodedPath == "/caf%C3%A9/x%2Fy")
        #expect(uri.path == "/café/x/y")
        #expect(uri.pathSegments == ["café", "x/y"])
        #expect(uri.percentEncodedQuery == "q=a+b%26c")
        #expect(uri.percentEncodedFragment == "fr%61g")
        #expect(uri.fragment == "frag")
        #expect(uri.description == uri.string)
    }

    @Test func keepsBracketsOnlyInThePercentEncodedHost() throws {
        let uri = try URI("http://[FE80::1%25En0]:8080/")
        #expect(uri.percentEncodedHost == "[FE80::1%25En0]")
        #expect(uri.host == "fe80::1%en0")
        #expect(uri.percentEncodedAuthority == "[FE80::1%25En0]:8080")
    }

    @Test func reportsNoAuthorityComponentsWithoutAnAuthority() throws {
        let uri = try URI("myapp:user/42")
        #expect(uri.percentEncodedAuthority == nil)
        #expect(uri.percentEncodedUserinfo == nil)
        #expect(uri.percentEncodedHost == nil)
        #expect(uri.hostKind == nil)
        #expect(uri.port == nil)
    }

    @Test func reportsAnEmptyAuthorityAsPresent() throws {
        let uri = try URI("myapp:///user/42")
        #expect(uri.hasAuthority)
        #expect(uri.percentEncodedAuthority == "")
        #expect(uri.percentEncodedHost == "")
        #expect(uri.hostKind == .registeredName)
    }

    @Test(
        arguments: [
            ("", []),
            ("/", [""]),
            ("/a/b/", ["a", "b", ""]),
            ("a/b", ["a", "b"]),
            ("a", ["a"]),
            ("a/", ["a", ""]),
            ("/a//b", ["a", "", "b"]),
            ("s://h", []),
            ("s://h/", [""]),
            ("s://h//x//", ["", "x", "", ""]),
            ("s:a/b", ["a", "b"]),
        ] as [(String, [String])])
    func splitsThePathIntoSegmentsAfterOneLeadingSlash(input: String, segments: [String]) throws {
        #expect(try URI(input).pathSegments == segments)
    }

    @Test func decodesThePathWholeButSegmentsOneByOne() throws {
        let uri = try URI("myapp://a/open/https%3A%2F%2Fexample.com%2Fx")
        #expect(uri.path == "/open/https://example.com/x")
        #expect(uri.pathSegments == ["open", "https://example.com/x"])
    }

    @Test func comparesURIsByTheirText() throws {
        #expect(try URI("http://a/b") == URI("http://a/b"))
        #expect(try URI("HTTP://a/b") != URI("http://a/b"))
        #expect(try Set([URI("a"), URI("a"), URI("b")]).count == 2)
    }

    @Test func acceptsAnInputOfExactlyTheMaximumLength() throws {
        let prefix = "myapp://a/"
        let input = prefix + String(repeating: "x", count: URI.maximumLength - prefix.utf8.count)
        let uri = try URI(input)
        #expect(uri.pathSegments.first?.utf8.count == URI.maximumLength - prefix.utf8.count)
    }
}
