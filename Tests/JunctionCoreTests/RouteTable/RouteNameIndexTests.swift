@testable import JunctionCore
import Testing

/// The name index of a table read without compiling it answers as a dictionary of the
/// names, filled in order and keeping the first, would.
@Suite struct RouteNameIndexTests {
    static let names = [
        "home", "item.detail", "item.list", "", "ü.unicode", "settings", "home", "a", "b", "ab", "ba",
        "checkout.v2", "checkout.v3", "user/profile", "👍",
    ]

    static func dictionary(_ names: [String]) -> [String: Int] {
        Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test(arguments: names + ["absent", "hom", "homee", "Home", "checkout.v", "ü.Unicode"])
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

    @Test func anEmptyTableFindsNothing() {
        #expect(RouteNameIndex([String]()).index(of: "home") { _ in "home" } == nil)
    }
}
