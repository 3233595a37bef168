import JunctionCore
import Testing

@Suite struct PercentDecodingTests {
    @Test(
        arguments: [
            ("myapp://a/caf%C3%A9", ["café"]),
            ("myapp://a/caf%c3%a9", ["café"]),
            ("myapp://a/%E4%BD%A0%E5%A5%BD", ["你好"]),
            ("myapp://a/%F0%9F%98%80", ["😀"]),
            ("myapp://a/%F4%8F%BF%BF", ["\u{10FFFF}"]),
            ("myapp://a/%EF%BF%BD", ["\u{FFFD}"]),
            ("myapp://a/%20", [" "]),
            ("myapp://a/%25", ["%"]),
            ("myapp://a/%2525", ["%25"]),
            ("myapp://a/a%2Fb", ["a/b"]),
            ("myapp://a/a%2fb/c", ["a/b", "c"]),
            ("myapp://a/%2B", ["+"]),
            ("myapp://a/+", ["+"]),
            ("myapp://a/caf%C3%A9-é", ["café-é"]),
            ("myapp://a/%41%42%43", ["ABC"]),
        ] as [(String, [String])])
    func decodesEachPathSegmentOnce(input: String, segments: [String]) throws {
        #expect(try URI(input).pathSegments == segments)
    }

    @Test func decodesUserinfoHostAndFragment() throws {
        let uri = try URI("myapp://j%C3%B6rg:p%40ss@b%C3%BCcher.de/#caf%C3%A9%20%2B+")
        #expect(uri.userinfo == "jörg:p@ss")
        #expect(uri.host == "bücher.de")
        #expect(uri.fragment == "café ++")
    }

    @Test func decodesTheQueryOnlyAfterSplittingIt() throws {
        let uri = try URI("myapp://a?k%3D=v%26w&x=%3D")
        #expect(uri.query.items == [.init(name: "k=", value: "v&w"), .init(name: "x", value: "=")])
    }

    /// A problem with an escape, at the offset of the `%` that starts it.
    struct Failure: Sendable, CustomTestStringConvertible {
        var input: String
        var code: URIError.Code
        var offset: Int
        var testDescription: String { input.debugDescription }
    }

    @Test(arguments: [
        // not two hex digits
        Failure(input: "myapp://a/%G1", code: .invalidPercentEscape, offset: 10),
        Failure(input: "myapp://a/%1G", code: .invalidPercentEscape, offset: 10),
        Failure(input: "myapp://a/%4", code: .invalidPercentEscape, offset: 10),
        Failure(input: "myapp://a/%", code: .invalidPercentEscape, offset: 10),
        Failure(input: "myapp://a/ok%", code: .invalidPercentEscape, offset: 12),
        Failure(input: "myapp://a/%%41", code: .invalidPercentEscape, offset: 10),
        Failure(input: "myapp://a/%4/", code: .invalidPercentEscape, offset: 10),
        Failure(input: "myapp://a/%41%", code: .invalidPercentEscape, offset: 13),
        Failure(input: "myapp://a?x=%G1", code: .invalidPercentEscape, offset: 12),
        Failure(input: "myapp://a?x=%4", code: .invalidPercentEscape, offset: 12),
        Failure(input: "myapp://a?x=%4#f", code: .invalidPercentEscape, offset: 12),
        Failure(input: "myapp://a#%", code: .invalidPercentEscape, offset: 10),
        Failure(input: "myapp://%zz@a/", code: .invalidPercentEscape, offset: 8),
        Failure(input: "myapp://a%2/", code: .invalidPercentEscape, offset: 9),
        Failure(input: "%", code: .invalidPercentEscape, offset: 0),
        // not UTF-8 once decoded
        Failure(input: "myapp://a/%C3%28", code: .invalidUTF8, offset: 10),
        Failure(input: "myapp://a/%ED%A0%80", code: .invalidUTF8, offset: 10),
        Failure(input: "myapp://a/%ED%BF%BF", code: .invalidUTF8, offset: 10),
        Failure(input: "myapp://a/%C0%AF", code: .invalidUTF8, offset: 10),
        Failure(input: "myapp://a/%C1%81", code: .invalidUTF8, offset: 10),
        Failure(input: "myapp://a/%E0%80%AF", code: .invalidUTF8, offset: 10),
        Failure(input: "myapp://a/%F0%80%80%AF", code: .invalidUTF8, offset: 10),
        Failure(input: "myapp://a/%F4%90%80%80", code: .invalidUTF8, offset: 10),
        Failure(input: "myapp://a/%F5%80%80%80", code: .invalidUTF8, offset: 10),
        Failure(input: "myapp://a/%FF", code: .invalidUTF8, offset: 10),
        Failure(input: "myapp://a/%80", code: .invalidUTF8, offset: 10),
        Failure(input: "myapp://a/%C3", code: .invalidUTF8, offset: 10),
        Failure(input: "myapp://a/ok%E4%BD", code: .invalidUTF8, offset: 12),
        Failure(input: "myapp://a/x%C3%A9%FF", code: .invalidUTF8, offset: 17),
        Failure(input: "myapp://a/%C3é", code: .invalidUTF8, offset: 10),
        // an escape sequence never spans a "/" or two components
        Failure(input: "myapp://a/%C3/%A9", code: .invalidUTF8, offset: 10),
        Failure(input: "myapp://a/%C3?%A9", code: .invalidUTF8, offset: 10),
        Failure(input: "myapp://a?x=%C3#%A9", code: .invalidUTF8, offset: 12),
        Failure(input: "myapp://a#%C3%28", code: .invalidUTF8, offset: 10),
        Failure(input: "myapp://%C3%28@a/", code: .invalidUTF8, offset: 8),
        Failure(input: "http://%C3%28/", code: .invalidUTF8, offset: 7),
    ])
    func rejectsABrokenEscapeAtItsPercentSign(_ failure: Failure) {
        // Strict parsing stops earlier at a raw non-ASCII character.
        let modes: [URI.ParsingMode] = failure.input.utf8.allSatisfy { $0 < 0x80 } ? [.lenient, .strict] : [.lenient]
        for mode in modes {
            let error = #expect(throws: URIError.self) { try URI(failure.input, mode: mode) }
            #expect(error?.code == failure.code, "\(mode)")
            #expect(error?.offset == failure.offset, "\(mode)")
            #expect(error?.input == failure.input)
        }
    }

    @Test func namesTheEscapeInTheMessage() {
        let error = #expect(throws: URIError.self) { try URI("myapp://a/%G1") }
        #expect(error?.description == #"invalid percent-escape "%G1" at offset 10 in "myapp://a/%G1""#)
    }

    @Test func namesTheBytesThatAreNotUTF8InTheMessage() {
        let error = #expect(throws: URIError.self) { try URI("myapp://a/%C3%28/x") }
        #expect(
            error?.description
                == #"percent-escapes that do not decode to UTF-8 from "%C3%28/x" at offset 10 in "myapp://a/%C3%28/x""#)
    }
}
