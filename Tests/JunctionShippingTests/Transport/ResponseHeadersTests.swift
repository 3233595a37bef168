import Foundation
import Testing

@testable import Junction
@testable import JunctionShipping

/// What the updater makes of the headers a server controls.
@Suite struct ResponseHeadersTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)  // Fri, 15 Jan 2027 08:00:00 GMT

    @Test(arguments: [
        ("7", Duration?.some(.seconds(7))), ("0", .zero), (" 120 ", .seconds(120)), ("86400", .seconds(86_400)),
        ("86401", .seconds(86_400)), ("999999999999", .seconds(86_400)),
        ("Fri, 15 Jan 2027 08:00:30 GMT", .seconds(30)), ("Fri, 15 Jan 2027 07:00:00 GMT", .zero),
        ("Sat, 15 Jan 2028 08:00:00 GMT", .seconds(86_400)),
        ("-5", nil), ("+5", nil), ("1.5", nil), ("soon", nil), ("", nil), (String(repeating: "1", count: 41), nil),
        ("Friday, 15-Jan-27 08:00:30 GMT", nil),
        // Not ASCII, or not 29 bytes, never reaches the date formatter, which traps on the
        // first (the response-headers fuzz target's finding).
        ("Fri, 15 Jan 2027 07:00:\u{301} GMT", nil), ("Fri, 15 Jan 2027 08:00:3\u{E9} GMT", nil),
        ("Fri, 15 Jan 2027 8:00:30 GMT", nil),
    ])
    func retryAfterIsSecondsOrAnHTTPDateClampedToADay(header: String, wait: Duration?) {
        #expect(ResponseHeaders.retryAfter(header, now: Self.now) == wait)
    }

    @Test(arguments: [
        (#""6b04c6f0-1388""#, true), (#"W/"x""#, true), ("", false), ("a b", false), ("caf\u{e9}", false),
        (String(repeating: "e", count: 256), true), (String(repeating: "e", count: 257), false), ("tab\t", false),
    ])
    func anETagIsKeptOnlyWhenShortAndVisibleASCII(etag: String, kept: Bool) {
        #expect((ResponseHeaders.etag(etag) != nil) == kept)
    }
}
