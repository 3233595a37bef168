import JunctionCore
import Testing

@Suite struct PercentEncodingTests {
    @Test(arguments: [
        ("a b/c?d=é", "a%20b%2Fc%3Fd%3D%C3%A9"),
        ("AZaz09-._~", "AZaz09-._~"),
        ("", ""),
        ("%", "%25"),
        ("https://example.com/a?b=1&c=2", "https%3A%2F%2Fexample.com%2Fa%3Fb%3D1%26c%3D2"),
    ])
    func encodesAllButUnreservedAndDecodesBack(_ text: String, _ encoded: String) throws {
        #expect(PercentEncoding.encode(text) == encoded)
        #expect(try PercentEncoding.decode(encoded) == text)
    }

    @Test func decodesPlusOnlyWhenAsked() throws {
        #expect(try PercentEncoding.decode("a+b") == "a+b")
        #expect(try PercentEncoding.decode("a+b%2B", plusAsSpace: true) == "a b+")
    }

    @Test func namesWhatDoesNotDecode() {
        let escape = #expect(throws: URIError.self) { try PercentEncoding.decode("ab%zz") }
        #expect(escape?.description == #"invalid percent-escape "%zz" at offset 2 in "ab%zz""#)
        let utf8 = #expect(throws: URIError.self) { try PercentEncoding.decode("%C3%28") }
        #expect(utf8?.code == .invalidUTF8)
    }
}
