import Junction
import Testing

/// docs/tour.md's "Route tables and matching" and "URIs" snippets, kept true: each comment
/// of the tour is an `#expect` here.
@Suite struct ReadmeTourTests {
    @Test func theRouteTableSnippetDoesWhatItSays() throws {
        let table = try RouteTable(routes: [
            Route(
                name: "user.profile", pattern: "myapp://user/:id", isExported: true,
                parameters: [ParameterDeclaration("id", type: .int, isRequired: true)]),
            Route(name: "user.byName", pattern: "myapp://user/:name"),
            Route(name: "settings", pattern: "myapp://settings(/:section)"),
            Route(name: "help", pattern: "https://help.example.com/articles/**"),
        ])

        let match = try table.match("myapp://user/42?tab=likes")
        #expect(match?.route.name == "user.profile")
        #expect(match?.parameters["id"] == "42")
        #expect(match?.value("id") == .int(42))
        #expect(match?.query["tab"] == "likes")

        #expect(try table.match("myapp://user/alice")?.route.name == "user.byName")
        #expect(try table.match("https://help.example.com/articles/a/b")?.parameters["**"] == "a/b")

        let why = table.explain(try URI("myapp://user/x%2Fy"))
        #expect(why.candidates.map(\.route.name) == ["user.byName"])
        #expect(why.rejections.count == 1)

        #expect(table.matches(try URI("myapp://user/42")).map(\.route.name) == ["user.profile", "user.byName"])
    }

    @Test func theURISnippetDoesWhatItSays() throws {
        let uri = try URI("myapp://u:p@[::1]:8080/a%2Fb/c?x=1+2&x=3#frag")
        #expect(uri.scheme == "myapp")
        #expect(uri.host == "::1" && uri.hostKind == .ipv6)
        #expect(uri.port == 8080)
        #expect(uri.pathSegments == ["a/b", "c"])
        #expect(uri.query.all("x") == ["1 2", "3"])
        #expect(uri.fragment == "frag")
        #expect(try URI("http://a/b/c/d;p?q").resolving("../g").string == "http://a/b/g")
    }
}
