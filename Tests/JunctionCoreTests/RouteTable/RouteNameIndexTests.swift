@testable import JunctionCore
import Testing

/// The name index of a table read without compiling it answers as a dictionary of the
/// names, filled in order and keeping the first, would.
@Suite struct RouteNameIndexTests {
    static let names = [
        "home", "item.detail", "item.list", "", "ü.unicode", "settings", "home", "a", "b", "ab", "ba",
        "checkout.v2", "checkout.v3", "user/profile", "👍", "caf\u{E9}", "\u{212A}elvin", "Kelvin", "cafe\u{301}",
    ]

    static func dictionary(_ names: [String]) -> [String: Int] {
        Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Equal as Swift's strings are: `ü` as one scalar or two, the Kelvin sign or `K`.
    @Test(
        arguments: names + [
            "absent", "hom", "homee", "Home", "checkout.v", "ü.Unicode", "u\u{308}.unicode", "Kelvin", "\u{212A}elvin",
            "cafe\u{301}", "caf\u{E9}", "cafe",
        ])
    func findsWhatADictionaryFinds(name: String) {
        let index = RouteNameIndex(Self.names)
        #expect(index.index(of: name) { Self.names[$0] } == Self.dictionary(Self.names)[name])
    }

    @Test func manyNamesAreAllFound() {
        let names = (0..<10_000).map { "route-\($0 * 7919 % 10_000)" }
        let index = RouteNameIndex(names)
        for (position, name) in names.enumerated() where position % 97 == 0 {
            #expect(index.index(of: name) { names[$0] } == position)
        }
        #expect(index.index(of: "route-10000") { names[$0] } == nil)
    }

    /// An ASCII name asked for finds an earlier non-ASCII name equal to it, and a later
    /// one does not hide the ASCII name.
    @Test func theFirstOfEquivalentNamesIsFound() {
        let names = ["a", "\u{212A}", "K", "\u{212A}"]
        let index = RouteNameIndex(names)
        #expect(index.index(of: "K") { names[$0] } == 1)
        #expect(index.index(of: "\u{212A}") { names[$0] } == 1)
        let later = ["K", "\u{212A}"]
        #expect(RouteNameIndex(later).index(of: "K") { later[$0] } == 0)
        #expect(RouteNameIndex(later).index(of: "\u{212A}") { later[$0] } == 0)
    }

    @Test func anEmptyTableFindsNothing() {
        #expect(RouteNameIndex([String]()).index(of: "home") { _ in "home" } == nil)
    }
}
