import JunctionCore
import Testing

@Suite struct IPAddressTests {
    @Test(arguments: [
        ("1.2.3.4", URI.HostKind.ipv4),
        ("0.0.0.0", .ipv4),
        ("127.0.0.1", .ipv4),
        ("255.255.255.255", .ipv4),
        ("01.2.3.4", .registeredName),
        ("1.2.3.04", .registeredName),
        ("256.1.1.1", .registeredName),
        ("1.2.3.256", .registeredName),
        ("1234.1.1.1", .registeredName),
        ("1.2.3", .registeredName),
        ("1.2.3.4.5", .registeredName),
        ("1.2.3.4.", .registeredName),
        ("1..2.3", .registeredName),
        ("0x7f.0.0.1", .registeredName),
        ("2130706433", .registeredName),
        ("a.b.c.d", .registeredName),
        ("localhost", .registeredName),
        ("", .registeredName),
        // RFC 3986 §3.2.2 matches IPv4address on the text as written.
        ("%31.2.3.4", .registeredName),
    ])
    func tellsAnIPv4AddressFromARegisteredName(host: String, kind: URI.HostKind) throws {
        let uri = try URI("http://\(host):80/")
        #expect(uri.hostKind == kind)
        #expect(uri.port == 80)
    }

    @Test(arguments: [
        ("::", "::"),
        ("::1", "::1"),
        ("1::", "1::"),
        ("1::8", "1::8"),
        ("1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"),
        ("1:2:3:4:5:6:7::", "1:2:3:4:5:6:7::"),
        ("::2:3:4:5:6:7:8", "::2:3:4:5:6:7:8"),
        ("2001:db8::7", "2001:db8::7"),
        ("2001:DB8::7", "2001:db8::7"),
        ("ABCD:EF01:2345:6789:abcd:ef01:2345:6789", "abcd:ef01:2345:6789:abcd:ef01:2345:6789"),
        ("0:0:0:0:0:0:0:0", "0:0:0:0:0:0:0:0"),
        ("::ffff:192.0.2.128", "::ffff:192.0.2.128"),
        ("::192.0.2.128", "::192.0.2.128"),
        ("1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:1.2.3.4"),
        ("1::1.2.3.4", "1::1.2.3.4"),
        ("fe80::1%25en0", "fe80::1%en0"),
        ("fe80::1%25eth0.1", "fe80::1%eth0.1"),
        ("fe80::1%25En0", "fe80::1%en0"),
        ("fe80::1%25a%2Db", "fe80::1%a-b"),
        ("1:2:3:4:5:6:7:8%25x", "1:2:3:4:5:6:7:8%x"),
    ])
    func acceptsAnIPv6LiteralAndGivesItsHostWithoutBrackets(literal: String, host: String) throws {
        for mode in [URI.ParsingMode.lenient, .strict] {
            let uri = try URI("http://[\(literal)]:8080/x", mode: mode)
            #expect(uri.hostKind == .ipv6)
            #expect(uri.host == host)
            #expect(uri.percentEncodedHost == "[\(literal)]")
            #expect(uri.port == 8080)
            #expect(uri.pathSegments == ["x"])
        }
    }

    @Test(arguments: [
        "",
        ":",
        ":::",
        "::::",
        "1",
        "1:2:3",
        "1:2:3:4:5:6:7",
        "1:2:3:4:5:6:7:8:9",
        "1:2:3:4:5:6:7:8::",
        "::1:2:3:4:5:6:7:8",
        "1:2:3:4::5:6:7:8",
        "1::2::3",
        "12345::",
        "g::1",
        ":1",
        "1:",
        "1::2:",
        ":1::2",
        "::1.2.3",
        "::1.2.3.256",
        "::01.2.3.4",
        "::1.2.3.4:1",
        "::1.2.3.4.5",
        "1:2:3:4:5:6:7:1.2.3.4",
        "1::2:3:4:5:6:1.2.3.4",
        "1.2.3.4",
        "1.2.3.4::",
        "::1 ",
        // RFC 6874: a zone is "%25" then at least one unreserved or escaped character.
        "fe80::1%25",
        "fe80::1%",
        "fe80::1%en0",
        "fe80::1%41en0",
        "fe80::1%2",
        "fe80::1%25en 0",
        "fe80::1%25en%0",
        "fe80::1%25en:0",
    ])
    func rejectsAnInvalidIPv6LiteralAtItsBracket(literal: String) {
        let error = #expect(throws: URIError.self) { try URI("http://[\(literal)]/") }
        #expect(error?.code == .invalidIPv6)
        #expect(error?.offset == 7)
    }

    @Test func rejectsAZoneThatDoesNotDecodeToUTF8() {
        let error = #expect(throws: URIError.self) { try URI("http://[fe80::1%25%C3]/") }
        #expect(error?.code == .invalidUTF8)
        #expect(error?.offset == 18)
    }

    @Test(arguments: [
        ("v7.fe:ok", "v7.fe:ok"),
        ("V1.X", "v1.x"),
        ("vAB.1", "vab.1"),
        ("v1.a-b_c~!$&'()*+,;=:", "v1.a-b_c~!$&'()*+,;=:"),
    ])
    func acceptsAnIPvFutureLiteral(literal: String, host: String) throws {
        for mode in [URI.ParsingMode.lenient, .strict] {
            let uri = try URI("http://[\(literal)]/", mode: mode)
            #expect(uri.hostKind == .ipvFuture)
            #expect(uri.host == host)
        }
    }

    @Test(arguments: ["v7.", "v.x", "vz.x", "v7x", "v7", "v7.a b", "v7.a%20", "v7.a/b", "v7.[x"])
    func rejectsAnInvalidIPvFutureLiteralAtItsBracket(literal: String) {
        let error = #expect(throws: URIError.self) { try URI("http://[\(literal)]:1/") }
        #expect(error?.code == .invalidHost)
        #expect(error?.offset == 7)
    }
}
