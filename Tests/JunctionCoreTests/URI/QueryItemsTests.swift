import JunctionCore
import Testing

@Suite struct QueryItemsTests {
    typealias Item = QueryItems.Item

    @Test(
        arguments: [
            ("myapp://a", []),
            ("myapp://a?", []),
            ("myapp://a?&&", []),
            ("myapp://a?#x=1", []),
            ("myapp://a#x?y=1", []),
            (
                "myapp://a?a=1&a=2&b&=x&&c=",
                [
                    Item(name: "a", value: "1"), Item(name: "a", value: "2"), Item(name: "b", value: ""),
                    Item(name: "", value: "x"), Item(name: "c", value: ""),
                ]
            ),
            ("myapp://a?=", [Item(name: "", value: "")]),
            ("myapp://a?a==b", [Item(name: "a", value: "=b")]),
            ("myapp://a?a=1&", [Item(name: "a", value: "1")]),
            ("myapp://a?&a=1", [Item(name: "a", value: "1")]),
            ("myapp://a?q=a+b", [Item(name: "q", value: "a b")]),
            ("myapp://a?a+b=c+d", [Item(name: "a b", value: "c d")]),
            ("myapp://a?q=a%2Bb", [Item(name: "q", value: "a+b")]),
            ("myapp://a?q=a%20b", [Item(name: "q", value: "a b")]),
            ("myapp://a?k%3D=v%26w", [Item(name: "k=", value: "v&w")]),
            ("myapp://a?k=%E4%BD%A0%E5%A5%BD", [Item(name: "k", value: "你好")]),
            ("myapp://a?k=你好", [Item(name: "k", value: "你好")]),
            ("myapp://a?x=1?y=2", [Item(name: "x", value: "1?y=2")]),
            ("myapp://a?x=1#y=2", [Item(name: "x", value: "1")]),
            ("?q=1", [Item(name: "q", value: "1")]),
            (
                "myapp://open?url=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1%26c%3D2",
                [
                    Item(name: "url", value: "https://example.com/a?b=1&c=2")
                ]
            ),
            (
                "myapp://open?url=https://example.com/a?b=1",
                [
                    Item(name: "url", value: "https://example.com/a?b=1")
                ]
            ),
            // A raw "&" ends the nested URL: the sender should have encoded it.
            (
                "myapp://open?url=https://example.com/a?b=1&c=2",
                [
                    Item(name: "url", value: "https://example.com/a?b=1"), Item(name: "c", value: "2"),
                ]
            ),
        ] as [(String, [Item])])
    func splitsTheQueryIntoDecodedItems(input: String, items: [Item]) throws {
        #expect(try URI(input).query.items == items)
    }

    @Test func readsAPlusAsASpaceByDefault() throws {
        let uri = try URI("myapp://a?q=a+b%2Bc&a+b=1")
        #expect(uri.query["q"] == "a b+c")
        #expect(uri.queryItems(plusAsSpace: true) == uri.query)
        #expect(uri.query["a b"] == "1")
    }

    @Test func keepsAPlusWhenAskedTo() throws {
        let uri = try URI("myapp://a?q=a+b%2Bc&a+b=1")
        let items = uri.queryItems(plusAsSpace: false)
        #expect(items["q"] == "a+b+c")
        #expect(items["a+b"] == "1")
        #expect(items["a b"] == nil)
    }

    @Test func keepsAPlusInThePathAndFragment() throws {
        let uri = try URI("myapp://a/a+b?q=a+b#a+b")
        #expect(uri.pathSegments == ["a+b"])
        #expect(uri.path == "/a+b")
        #expect(uri.fragment == "a+b")
        #expect(uri.query["q"] == "a b")
    }

    @Test func findsFirstLastAndAllValuesOfAName() throws {
        let query = try URI("myapp://a?a=1&a=2&b&=x&&c=").query
        #expect(query.count == 5)
        #expect(query.first("a") == "1")
        #expect(query.last("a") == "2")
        #expect(query.all("a") == ["1", "2"])
        #expect(query["a"] == "1")
        #expect(query["b"] == "")
        #expect(query[""] == "x")
        #expect(query["c"] == "")
        #expect(query["z"] == nil)
        #expect(query.first("z") == nil)
        #expect(query.last("z") == nil)
        #expect(query.all("z") == [])
    }

    @Test func groupsValuesByNameInOrderOfFirstAppearance() throws {
        let grouped = try URI("myapp://a?b=1&a=2&b=3&=x&a&c=").query.grouped
        #expect(grouped.map(\.name) == ["b", "a", "", "c"])
        #expect(grouped.map(\.values) == [["1", "3"], ["2", ""], ["x"], [""]])
    }

    @Test func actsAsARandomAccessCollectionOfItems() throws {
        let query = try URI("myapp://a?x=1&y=2").query
        #expect(query.startIndex == 0)
        #expect(query.endIndex == 2)
        #expect(query[1] == Item(name: "y", value: "2"))
        #expect(query.map(\.name) == ["x", "y"])
        #expect(query.reversed().map(\.value) == ["2", "1"])
    }

    @Test func buildsFromItemsAndDescribesThemDecoded() throws {
        let built = QueryItems([Item(name: "a", value: "1 2"), Item(name: "b", value: "")])
        #expect(built.description == "a=1 2&b=")
        #expect(try URI("myapp://x?a=1+2&b").query == built)
        #expect(QueryItems().isEmpty)
        var item = Item(name: "a", value: "1")
        item.value = "2"
        #expect(item == Item(name: "a", value: "2"))
    }

    @Test func tellsAnEmptyQueryFromNone() throws {
        #expect(try URI("myapp://a").percentEncodedQuery == nil)
        #expect(try URI("myapp://a?").percentEncodedQuery == "")
        #expect(try URI("myapp://a?#f").percentEncodedQuery == "")
        #expect(try URI("myapp://a?").query.isEmpty)
    }
}
