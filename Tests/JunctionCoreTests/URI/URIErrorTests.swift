import JunctionCore
import Testing

@Suite struct URIErrorTests {
    /// An input that must fail with `code` at UTF-8 `offset`.
    struct Failure: Sendable, CustomTestStringConvertible {
        var input: String
        var code: URIError.Code
        var offset: Int
        var mode: URI.ParsingMode = .lenient

        var testDescription: String { "\(input.debugDescription) (\(mode))" }
    }

    /// Control characters are errors in every mode and every component, reported as such.
    static let controlCharacters: [Failure] = [
        Failure(input: "myapp://a/b\nc", code: .controlCharacter, offset: 11),
        Failure(input: "myapp://a/b\nc", code: .controlCharacter, offset: 11, mode: .strict),
        Failure(input: "myapp://a/\u{0}", code: .controlCharacter, offset: 10),
        Failure(input: "myapp://a/\u{7F}", code: .controlCharacter, offset: 10),
        Failure(input: "myapp://a/b\r\nSet-Cookie: x", code: .controlCharacter, offset: 11),
        Failure(input: "myapp://a?x=\n", code: .controlCharacter, offset: 12),
        Failure(input: "myapp://a?x=\u{7F}", code: .controlCharacter, offset: 12, mode: .strict),
        Failure(input: "myapp://a#\t", code: .controlCharacter, offset: 10),
        Failure(input: "myapp://a#x\u{0}", code: .controlCharacter, offset: 11),
        // authority
        Failure(input: "myapp://u\n@a/", code: .controlCharacter, offset: 9),
        Failure(input: "myapp://a\nb/", code: .controlCharacter, offset: 9),
        Failure(input: "myapp://\u{7F}/", code: .controlCharacter, offset: 8),
        Failure(input: "http://a\u{0}", code: .controlCharacter, offset: 8),
        Failure(input: "http://a\u{0}", code: .controlCharacter, offset: 8, mode: .strict),
        Failure(input: "http://a:8\n/", code: .controlCharacter, offset: 10),
        Failure(input: "http://a:\u{7F}/", code: .controlCharacter, offset: 9),
        Failure(input: "http://[::1\n]/", code: .controlCharacter, offset: 11),
        Failure(input: "http://[::1]\n/", code: .controlCharacter, offset: 12),
        Failure(input: "http://[v7.a\u{0}]/", code: .controlCharacter, offset: 12),
        // scheme and first segment
        Failure(input: "my\napp://a", code: .controlCharacter, offset: 2),
        Failure(input: "\nmyapp://a", code: .controlCharacter, offset: 0),
        Failure(input: "\r\nhttp://a", code: .controlCharacter, offset: 0),
        Failure(input: "\u{0}", code: .controlCharacter, offset: 0),
        Failure(input: "a\nb", code: .controlCharacter, offset: 1),
        Failure(input: "a\u{7F}:b", code: .controlCharacter, offset: 1),
    ]

    static let schemes: [Failure] = [
        Failure(input: "1abc:x", code: .invalidScheme, offset: 0),
        Failure(input: "1abc:x", code: .invalidScheme, offset: 0, mode: .strict),
        Failure(input: "a b:c", code: .invalidScheme, offset: 1),
        Failure(input: "a b:c", code: .invalidScheme, offset: 1, mode: .strict),
        Failure(input: ":x", code: .invalidScheme, offset: 0),
        Failure(input: ":", code: .invalidScheme, offset: 0),
        Failure(input: "-a:x", code: .invalidScheme, offset: 0),
        Failure(input: "+:x", code: .invalidScheme, offset: 0),
        Failure(input: "a_b:c", code: .invalidScheme, offset: 1),
        Failure(input: "a%41:x", code: .invalidScheme, offset: 1),
        Failure(input: "é:x", code: .invalidScheme, offset: 0),
        Failure(input: "ab\u{E9}:x", code: .invalidScheme, offset: 2),
    ]

    static let hosts: [Failure] = [
        Failure(input: "http://[::1", code: .invalidHost, offset: 7),
        Failure(input: "http://[::1/x]", code: .invalidHost, offset: 7),
        Failure(input: "http://[1:2:3]/", code: .invalidIPv6, offset: 7),
        Failure(input: "http://[]/", code: .invalidIPv6, offset: 7),
        Failure(input: "http://[::1]x/", code: .invalidHost, offset: 12),
        Failure(input: "http://[::1]]/", code: .invalidHost, offset: 12),
        Failure(input: "http://[::1][::2]/", code: .invalidHost, offset: 12),
        Failure(input: "http://a b/", code: .invalidHost, offset: 8),
        Failure(input: "http://a b/", code: .invalidHost, offset: 8, mode: .strict),
        Failure(input: "http://a]/", code: .invalidHost, offset: 8),
        Failure(input: "http://a[b/", code: .invalidHost, offset: 8),
        Failure(input: "http://a<b>/", code: .invalidHost, offset: 8),
        Failure(input: "http://a\"/", code: .invalidHost, offset: 8),
        Failure(input: "http://a{b}/", code: .invalidHost, offset: 8),
        Failure(input: "http://u@a b/", code: .invalidHost, offset: 10),
        Failure(input: "http://bücher.de/", code: .invalidHost, offset: 8, mode: .strict),
    ]

    static let ports: [Failure] = [
        Failure(input: "http://a:99999/", code: .invalidPort, offset: 9),
        Failure(input: "http://a:65536/", code: .invalidPort, offset: 9),
        Failure(input: "http://a:123456789012345678901234567890/", code: .invalidPort, offset: 9),
        Failure(input: "http://a:8a/", code: .invalidPort, offset: 10),
        Failure(input: "http://a:-1/", code: .invalidPort, offset: 9),
        Failure(input: "http://a:+80/", code: .invalidPort, offset: 9),
        Failure(input: "http://a: 80/", code: .invalidPort, offset: 9),
        Failure(input: "http://a:1:2/", code: .invalidPort, offset: 10),
        Failure(input: "http://a:\u{663}/", code: .invalidPort, offset: 9),
        Failure(input: "http://[::1]:x/", code: .invalidPort, offset: 13),
        Failure(input: "http://a:b@c:d/", code: .invalidPort, offset: 13),
    ]

    /// What only strict parsing rejects: characters RFC 3986 wants percent-encoded.
    static let strictOnly: [Failure] = [
        Failure(input: "myapp://a/b c", code: .disallowedCharacter, offset: 11, mode: .strict),
        Failure(input: "myapp://a/{x}", code: .disallowedCharacter, offset: 10, mode: .strict),
        Failure(input: "myapp://search/你好", code: .disallowedCharacter, offset: 15, mode: .strict),
        Failure(input: "myapp://a/[x]", code: .disallowedCharacter, offset: 10, mode: .strict),
        Failure(input: "myapp://a/\"q\"", code: .disallowedCharacter, offset: 10, mode: .strict),
        Failure(input: "myapp://a/x\\y", code: .disallowedCharacter, offset: 11, mode: .strict),
        Failure(input: "myapp://a/x|y", code: .disallowedCharacter, offset: 11, mode: .strict),
        Failure(input: "myapp://a/^`", code: .disallowedCharacter, offset: 10, mode: .strict),
        Failure(input: "myapp://a?q=a b", code: .disallowedCharacter, offset: 13, mode: .strict),
        Failure(input: "myapp://a?q={}", code: .disallowedCharacter, offset: 12, mode: .strict),
        Failure(input: "myapp://a#x#y", code: .disallowedCharacter, offset: 11, mode: .strict),
        Failure(input: "myapp://a#é", code: .disallowedCharacter, offset: 10, mode: .strict),
        Failure(input: "myapp://a|b@h/", code: .disallowedCharacter, offset: 9, mode: .strict),
        Failure(input: "myapp://a@b@h/", code: .disallowedCharacter, offset: 9, mode: .strict),
        Failure(input: "b c", code: .disallowedCharacter, offset: 1, mode: .strict),
        Failure(input: "<a>", code: .disallowedCharacter, offset: 0, mode: .strict),
    ]

    @Test(arguments: controlCharacters + schemes + hosts + ports + strictOnly)
    func reportsTheProblemAndWhereItStarts(_ failure: Failure) {
        let error = #expect(throws: URIError.self) { try URI(failure.input, mode: failure.mode) }
        #expect(error?.code == failure.code)
        #expect(error?.offset == failure.offset)
        #expect(error?.input == failure.input)
    }

    @Test(arguments: strictOnly)
    func lenientModeAcceptsWhatOnlyStrictModeRejects(_ failure: Failure) {
        #expect(throws: Never.self) { try URI(failure.input, mode: .lenient) }
    }

    @Test func rejectsAnInputLongerThanTheMaximum() {
        let input = "myapp://a/" + String(repeating: "x", count: URI.maximumLength)
        let error = #expect(throws: URIError.self) { try URI(input) }
        #expect(error?.code == .tooLong)
        #expect(error?.offset == URI.maximumLength)
        let shown = "myapp://a/" + String(repeating: "x", count: 190)
        #expect(error?.description == "URI too long (more than 1048576 bytes) at offset 1048576 in \"\(shown)…\"")
    }

    // Full messages, as a user sees them.

    @Test func describesAnInvalidScheme() {
        let error = #expect(throws: URIError.self) { try URI("1abc:x") }
        #expect(
            error?.description
                == #"invalid scheme "1abc" (a scheme is a letter followed by letters, digits, "+", "-" or ".") at offset 0 in "1abc:x""#
        )
    }

    @Test func describesAnInvalidPort() {
        let error = #expect(throws: URIError.self) { try URI("http://a:99999/") }
        #expect(
            error?.description
                == #"invalid port "99999" (a port is a number from 0 to 65535) at offset 9 in "http://a:99999/""#)
    }

    @Test func describesAnInvalidHostCharacter() {
        let error = #expect(throws: URIError.self) { try URI("http://a b/") }
        #expect(error?.description == #"invalid host (" " cannot appear in a host) at offset 8 in "http://a b/""#)
    }

    @Test func describesAnUnterminatedIPLiteral() {
        let error = #expect(throws: URIError.self) { try URI("http://[::1") }
        #expect(error?.description == #"invalid host ("[" without "]") at offset 7 in "http://[::1""#)
    }

    @Test func describesADisallowedCharacterInStrictMode() {
        let error = #expect(throws: URIError.self) { try URI("myapp://search/你好", mode: .strict) }
        #expect(
            error?.description == #"character not allowed here by RFC 3986 "你" at offset 15 in "myapp://search/你好""#)
    }

    @Test func escapesControlCharactersSoAMessageCannotForgeALogLine() {
        let error = #expect(throws: URIError.self) { try URI("myapp://a/b\r\nSet-Cookie: x") }
        #expect(error?.description == #"control character U+000D at offset 11 in "myapp://a/b\u{d}\u{a}Set-Cookie: x""#)
    }

    @Test func describesAControlCharacterInTheHostLikeAnyOther() {
        // Regression: a control character in the host was reported without naming it.
        let error = #expect(throws: URIError.self) { try URI("myapp://a\nb/") }
        #expect(error?.description == #"control character U+000A at offset 9 in "myapp://a\u{a}b/""#)
    }

    @Test func comparesCodesAsAnOpenSetOfValues() {
        #expect(URIError.Code.invalidPort == .invalidPort)
        #expect(URIError.Code.invalidPort != .invalidHost)
        #expect(URIError.Code.invalidIPv6.description == "invalid IPv6 address")
        #expect(URIError.Code.invalidPath.description == "invalid path")
        let error = URIError(.invalidPath, at: 3, in: "a:b")
        #expect(error.description == #"invalid path at offset 3 in "a:b""#)
    }
}
