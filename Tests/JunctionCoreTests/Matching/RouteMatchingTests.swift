import JunctionCore
import Testing

@Suite struct RouteMatchingTests {
    // MARK: Decoding

    static let decoding = try! RouteTable.make([
        ("segment", "/s/:value"),
        ("plus", "/a+b"),
        ("slashInside", "/a%2Fb/c"),
        ("two", "/a/b/c"),
        ("cafe", "/caf%C3%A9"),
    ])

    @Test(arguments: [
        MatchCase("myapp:/s/a%2Fb", "segment", ["value": "a/b"]),  // %2F stays inside its segment
        MatchCase("myapp:/s/a%2Bb", "segment", ["value": "a+b"]),  // %2B in a path is +
        MatchCase("myapp:/s/a+b", "segment", ["value": "a+b"]),  // + in a path is never a space
        MatchCase("myapp:/s/a%20b", "segment", ["value": "a b"]),
        MatchCase("myapp:/s/%E4%BD%A0%E5%A5%BD", "segment", ["value": "你好"]),
        MatchCase("myapp:/s/你好", "segment", ["value": "你好"]),
        MatchCase("myapp:/s/https%3A%2F%2Fexample.com%2Fx%3Fa%3D1", "segment", ["value": "https://example.com/x?a=1"]),
        MatchCase("myapp:/s/%25", "segment", ["value": "%"]),  // decoded exactly once
        MatchCase("myapp:/s/%2525", "segment", ["value": "%25"]),
        MatchCase("myapp:/a+b", "plus"),
        MatchCase("myapp:/a%2Bb", "plus"),
        MatchCase("myapp:/a%2Fb/c", "slashInside"),
        MatchCase("myapp:/a/b/c", "two"),  // a real "/" is not "%2F"
        MatchCase("myapp:/a%2fb/c", "slashInside"),  // escapes are case-insensitive hex
        MatchCase("myapp:/caf%C3%A9", "cafe"),
        MatchCase("myapp:/café", "cafe"),
    ])
    func decodesEachSegmentOnceAfterSplitting(_ row: MatchCase) throws {
        try Self.decoding.expect(row)
    }

    // MARK: Trailing slashes, empty segments, case

    static let shapes = try! RouteTable.make([
        ("list", "/items"),
        ("item", "/items/:id/"),  // a trailing slash in a pattern is ignored
        ("any", "/b/*"),
        ("rest", "/c/**"),
        ("both", "/d/*/x"),
    ])

    @Test(arguments: [
        MatchCase("myapp:/items", "list"),
        MatchCase("myapp:/items/", "list"),
        MatchCase("myapp:/items/7", "item", ["id": "7"]),
        MatchCase("myapp:/items/7/", "item", ["id": "7"]),
        MatchCase("myapp:/items/7//", nil),  // only one trailing slash is forgiven
        MatchCase("myapp:/items//7", nil),  // an empty segment is a segment: no parameter matches it
        MatchCase("myapp:/Items", nil),  // paths are case-sensitive by default
        MatchCase("myapp:/b/x", "any"),
        MatchCase("myapp:/b", nil),  // * needs exactly one segment
        MatchCase("myapp:/b/", nil),
        MatchCase("myapp:/b/x/y", nil),
        MatchCase("myapp:/c", "rest", ["**": ""]),  // ** takes zero segments
        MatchCase("myapp:/c/", "rest", ["**": ""]),
        MatchCase("myapp:/c/x", "rest", ["**": "x"]),
        MatchCase("myapp:/c/x/y/z", "rest", ["**": "x/y/z"]),
        MatchCase("myapp:/c//x", "rest", ["**": "/x"]),  // ** keeps empty segments
        MatchCase("myapp:/d//x", nil),  // an empty segment before a wildcard does not match *
        MatchCase("myapp:/d/a/x", "both"),
    ])
    func treatsSlashesAndEmptySegmentsExactly(_ row: MatchCase) throws {
        try Self.shapes.expect(row)
    }

    @Test func comparesSchemeAndHostCaseInsensitivelyAndPathsAsConfigured() throws {
        let sensitive = try RouteTable.make([("user", "myapp://user/Profile"), ("site", "https://Example.COM/About")])
        #expect(try sensitive.match("MYAPP://USER/Profile")?.route.name == "user")
        #expect(try sensitive.match("myapp://user/profile") == nil)
        #expect(try sensitive.match("HTTPS://EXAMPLE.com/About")?.route.name == "site")
        #expect(try sensitive.match("https://example.com/about") == nil)

        let insensitive = try RouteTable.make(
            [("user", "myapp://user/Profile"), ("cafe", "/CAFÉ/:name")],
            options: RouteTableOptions(caseSensitive: false))
        #expect(try insensitive.match("myapp://user/PROFILE")?.route.name == "user")
        #expect(try insensitive.match("x:/café/Bob")?.parameters["name"] == "Bob")  // captures keep their case
        #expect(try insensitive.match("x:/CAF%C3%89/Bob")?.route.name == "cafe")
    }

    // MARK: Precedence

    @Test func prefersSpecificityOverRegistrationOrder() throws {
        let orders: [[(String, String)]] = [
            [("param", "/user/:id"), ("constant", "/user/me")],
            [("constant", "/user/me"), ("param", "/user/:id")],
        ]
        for routes in orders {
            let table = try RouteTable.make(routes)
            #expect(try table.match("x:/user/me")?.route.name == "constant")
            #expect(try table.match("x:/user/42")?.route.name == "param")
        }
    }

    @Test(arguments: [
        MatchCase("x:/k/abc/end", "constant"),
        MatchCase("x:/k/12/end", "regex", ["n": "12"]),
        MatchCase("x:/k/zz/end", "param", ["p": "zz"]),
        MatchCase("x:/k/zz/other", "star"),
        MatchCase("x:/k/zz/other/more", "rest", ["**": "zz/other/more"]),
    ])
    func ranksConstantThenRegexThenParameterThenStarThenCatchAll(_ row: MatchCase) throws {
        // Registered least specific first, so order cannot be what decides.
        let table = try RouteTable.make([
            ("rest", "/k/**"),
            ("star", "/k/*/other"),
            ("param", "/k/:p/end"),
            ("regex", "/k/:n([0-9]+)/end"),
            ("constant", "/k/abc/end"),
        ])
        try table.expect(row)
    }

    @Test func comparesSpecificitySegmentBySegmentFromTheLeft() throws {
        // /a/:x/c vs /a/b/:y — the first segment where they differ decides: constant "b" wins.
        let table = try RouteTable.make([("paramFirst", "/a/:x/c"), ("constantFirst", "/a/b/:y")])
        #expect(try table.match("x:/a/b/c")?.route.name == "constantFirst")
        // Two regex parameters tie at their segment; the next segment decides, not registration order.
        let regexes = try RouteTable.make([("loose", "/r/:a([a-z0-9]+)/:b"), ("strict", "/r/:c([0-9]+)/end")])
        #expect(try regexes.match("x:/r/42/end")?.route.name == "strict")
        #expect(try regexes.match("x:/r/42/other")?.route.name == "loose")
    }

    @Test func breaksTiesByRegistrationOrder() throws {
        let table = try RouteTable.make([("first", "/t/:a(.*)"), ("second", "/t/:b(.+)")])
        #expect(try table.match("x:/t/q")?.route.name == "first")
        let swapped = try RouteTable.make([("second", "/t/:b(.+)"), ("first", "/t/:a(.*)")])
        #expect(try swapped.match("x:/t/q")?.route.name == "second")
    }

    @Test func backtracksWhenTheMostSpecificBranchFailsDeeper() throws {
        // routing-kit issues #92/#145: it commits to /b/:a and cannot reach /b/*/c.
        let table = try RouteTable.make([("wild", "/b/*/c"), ("param", "/b/:a")])
        #expect(try table.match("x:/b/c/c")?.route.name == "wild")
        #expect(try table.match("x:/b/c")?.route.name == "param")
        // Constant branch exists but dead-ends; the parameter branch must still be tried.
        let deeper = try RouteTable.make([("constant", "/p/new/edit"), ("param", "/p/:id/view")])
        #expect(try deeper.match("x:/p/new/view")?.route.name == "param")
        #expect(try deeper.match("x:/p/new/view")?.parameters["id"] == "new")
    }

    @Test func letsHigherPriorityBeatSpecificity() throws {
        let table = try RouteTable(routes: [
            Route(name: "specific", pattern: "/promo/summer"),
            Route(name: "campaign", pattern: "/promo/**", priority: 10),
            Route(name: "low", pattern: "/other/:x", priority: -1),
            Route(name: "plain", pattern: "/other/*"),
        ])
        #expect(try table.match("x:/promo/summer")?.route.name == "campaign")
        #expect(try table.match("x:/other/y")?.route.name == "plain")
        #expect(try table.matches(URI("x:/promo/summer")).map(\.route.name) == ["campaign", "specific"])
    }

    @Test func listsEveryMatchInPrecedenceOrder() throws {
        let table = try RouteTable.make([
            ("rest", "/m/**"), ("star", "/m/*"), ("param", "/m/:id"), ("constant", "/m/1"), ("global", "/m/:other(1)"),
        ])
        #expect(try table.matches(URI("x:/m/1")).map(\.route.name) == ["constant", "global", "param", "star", "rest"])
    }

    // MARK: Optional groups

    @Test(arguments: [
        MatchCase("x:/the", "groups"),
        MatchCase("x:/the/foo/1", "groups", ["a": "1"]),
        MatchCase("x:/the/bar/2", "groups", ["b": "2"]),
        MatchCase("x:/the/foo/1/bar/2", "groups", ["a": "1", "b": "2"]),
        MatchCase("x:/the/bar/2/foo/1", nil),
        MatchCase("x:/the/foo", nil),
        MatchCase("x:/n", "nested"),
        MatchCase("x:/n/a", "nested"),
        MatchCase("x:/n/a/b", "nested"),
        MatchCase("x:/n/b", nil),
    ])
    func expandsOptionalGroupsIntoEveryCombination(_ row: MatchCase) throws {
        let table = try RouteTable.make([("groups", "/the(/foo/:a)(/bar/:b)"), ("nested", "/n(/a(/b))")])
        try table.expect(row)
    }

    /// JLRoutes' optional routes, from its README and its tests (testRouting's required and
    /// optional parameters, testOptionalRoutesAtEnd, …AtStart, …Interleaved), each pattern
    /// alone in a table as JLRoutes registered it, with the URLs its tests open.
    @Test(arguments: [
        ("/the(/foo/:a)(/bar/:b)", MatchCase("tests://the", "jl")),
        ("/the(/foo/:a)(/bar/:b)", MatchCase("tests://the/foo/1", "jl", ["a": "1"])),
        ("/the(/foo/:a)(/bar/:b)", MatchCase("tests://the/bar/2", "jl", ["b": "2"])),
        ("/the(/foo/:a)(/bar/:b)", MatchCase("tests://the/foo/1/bar/2", "jl", ["a": "1", "b": "2"])),
        ("/the(/foo/:a)(/bar/:b)", MatchCase("tests://the/bar/2/foo/1", nil)),  // groups keep their order
        (JLRoutes.required, MatchCase("tests://required/mustExist", "jl", ["requiredParam": "mustExist"])),
        (
            JLRoutes.required,
            MatchCase(
                "tests://required/mustExist/optional/mightExist", "jl",
                ["requiredParam": "mustExist", "optionalParam": "mightExist"])
        ),
        (
            JLRoutes.required,
            MatchCase(
                "tests://required/mustExist/optional/mightExist/moreOptional/mightExistToo", "jl",
                ["requiredParam": "mustExist", "optionalParam": "mightExist", "moreOptionalParam": "mightExistToo"])
        ),
        (JLRoutes.required, MatchCase("tests://required", nil)),  // a parameter outside the groups is required
        (
            JLRoutes.atEnd,
            MatchCase("foo://path/abc/new/anotherpath/def", "jl", ["thing": "abc", "anotherthing": "def"])
        ),
        (JLRoutes.atEnd, MatchCase("foo://path/foo/anotherpath/bar", "jl", ["thing": "foo", "anotherthing": "bar"])),
        (JLRoutes.atEnd, MatchCase("foo://path/yyy/new", "jl", ["thing": "yyy"])),
        (JLRoutes.atEnd, MatchCase("foo://path/zzz", "jl", ["thing": "zzz"])),
        (JLRoutes.atEnd, MatchCase("foo://path/zzz/anotherpath", nil)),
        (JLRoutes.atStart, MatchCase("foo://rest/app/aaa/bbb", "jl", ["object": "aaa", "id": "bbb"])),
        (JLRoutes.atStart, MatchCase("foo://app/aaa/bbb", "jl", ["object": "aaa", "id": "bbb"])),
        (JLRoutes.atStart, MatchCase("foo://rest/aaa/bbb", "jl", ["object": "aaa", "id": "bbb"])),
        (JLRoutes.atStart, MatchCase("foo://aaa/bbb", "jl", ["object": "aaa", "id": "bbb"])),
        (JLRoutes.atStart, MatchCase("foo://app/rest/aaa/bbb", nil)),  // groups keep their order
        (JLRoutes.interleaved, MatchCase("foo://rest/aaa/app/bbb", "jl", ["object": "aaa", "id": "bbb"])),
        (JLRoutes.interleaved, MatchCase("foo://aaa/app/bbb", "jl", ["object": "aaa", "id": "bbb"])),
        (JLRoutes.interleaved, MatchCase("foo://rest/aaa/bbb", "jl", ["object": "aaa", "id": "bbb"])),
        (JLRoutes.interleaved, MatchCase("foo://aaa/bbb", "jl", ["object": "aaa", "id": "bbb"])),
        (JLRoutes.interleaved, MatchCase("foo://aaa", nil)),
        // JLRoutes' routesForScheme: spelt with the scheme, the group in the host's place.
        ("foo://(rest/)(app/):object/:id", MatchCase("foo://rest/app/aaa/bbb", "jl", ["object": "aaa", "id": "bbb"])),
        ("foo://(rest/)(app/):object/:id", MatchCase("foo://aaa/bbb", "jl", ["object": "aaa", "id": "bbb"])),
        ("foo://(rest/)(app/):object/:id", MatchCase("bar://aaa/bbb", nil)),
    ])
    func matchesJLRoutesOptionalRoutesAsJLRoutesDoes(_ pattern: String, _ row: MatchCase) throws {
        try RouteTable.make([("jl", pattern)]).expect(row)
    }

    /// JLRoutes' test patterns, by the test that registers them.
    enum JLRoutes {
        static let required =
            "/required/:requiredParam(/optional/:optionalParam)(/moreOptional/:moreOptionalParam)"
        static let atEnd = "/path/:thing(/new)(/anotherpath/:anotherthing)"
        static let atStart = "/(rest/)(app/):object/:id"
        static let interleaved = "/(rest/):object/(app/):id"
    }

    /// `(/` after a parameter starts a group (a regex never starts with "/"); a regex that
    /// does is written `\/`. A group after the host read as a path is the same.
    @Test(arguments: [
        MatchCase("x:/g/1", "group", ["p": "1"]),
        MatchCase("x:/g/1/new", "group", ["p": "1"]),
        MatchCase("x:/g/%2Fnew", "group", ["p": "/new"]),
        MatchCase("x:/r/%2Fb", "regex", ["p": "/b"]),
        MatchCase("x:/r/b", nil),
        MatchCase("myapp://7", "hostGroup", ["n": "7"]),
        MatchCase("myapp://7/edit", "hostGroup", ["n": "7"]),
    ])
    func readsAParenthesisAfterAParameterAsAGroupOnlyBeforeASlash(_ row: MatchCase) throws {
        let table = try RouteTable.make([
            ("group", "/g/:p(/new)"),
            ("regex", #"/r/:p(\/.*)"#),
            ("hostGroup", "myapp://:n(/edit)"),
        ])
        try table.expect(row)
    }

    // MARK: Typed parameters

    @Test func letsTypedParametersDecideBetweenRoutesOfOneShape() throws {
        let table = try RouteTable(routes: [
            Route(name: "byName", pattern: "/user/:name"),
            Route(name: "byId", pattern: "/user/:id", parameters: [ParameterDeclaration("id", type: .int)]),
            Route(name: "doc", pattern: "/doc/:ref", parameters: [ParameterDeclaration("ref", type: .uuid)]),
            Route(name: "flag", pattern: "/flag/:on", parameters: [ParameterDeclaration("on", type: .bool)]),
            Route(
                name: "price", pattern: "/price/:amount", parameters: [ParameterDeclaration("amount", type: .double)]),
        ])
        #expect(try table.match("x:/user/42")?.route.name == "byId")  // typed beats untyped
        #expect(try table.match("x:/user/-7")?.route.name == "byId")
        #expect(try table.match("x:/user/alice")?.route.name == "byName")
        #expect(try table.match("x:/user/99999999999999999999")?.route.name == "byName")  // overflows Int
        #expect(
            try table.match("x:/doc/123E4567-E89B-12D3-A456-426614174000")?.value("ref")
                == .uuid("123e4567-e89b-12d3-a456-426614174000"))
        #expect(try table.match("x:/doc/123e4567") == nil)
        #expect(try table.match("x:/flag/YES")?.value("on") == .bool(true))
        #expect(try table.match("x:/flag/maybe") == nil)
        #expect(try table.match("x:/price/3.5")?.value("amount") == .double(3.5))
        #expect(try table.match("x:/price/nan") == nil)
        #expect(try table.match("x:/price/inf") == nil)
    }

    @Test func explainsWhyATypedRouteDidNotMatch() throws {
        let table = try RouteTable(routes: [
            Route(name: "byId", pattern: "myapp://user/:id", parameters: [ParameterDeclaration("id", type: .int)]),
            Route(name: "order", pattern: "myapp://order/:no([A-Z]{2}[0-9]+)"),
        ])
        let explanation = table.explain(try URI("myapp://user/abc"))
        #expect(explanation.match == nil)
        #expect(
            explanation.reason
                == #"no route matches path "/user/abc"; route "byId" (myapp://user/:id): parameter "id" must be int, got "abc""#
        )
        let order = table.explain(try URI("myapp://order/x1"))
        #expect(
            order.reason
                == #"no route matches path "/order/x1"; route "order" (myapp://order/:no([A-Z]{2}[0-9]+)): parameter "no" must match /[A-Z]{2}[0-9]+/, got "x1""#
        )
        #expect(table.explain(try URI("other://x")).reason == #"no route for scheme "other""#)
    }

    // MARK: Hosts and schemes

    @Test(arguments: [
        MatchCase("myapp://user/42", "deep", ["id": "42"]),
        MatchCase("myapp:/user/42", "deep", ["id": "42"]),  // no authority: the same path
        MatchCase("myapp:///user/42", "deep", ["id": "42"]),  // empty host: the same path
        MatchCase("MYAPP://User/42", "deep", ["id": "42"]),  // the host is still a host: case-insensitive
        MatchCase("myapp://u:p@user:99/42", "deep", ["id": "42"]),  // userinfo and port are not routed
        MatchCase("https://example.com/user/42", "universal", ["id": "42"]),
        MatchCase("https://EXAMPLE.com/user/42", "universal", ["id": "42"]),
        MatchCase("https://evil.com/user/42", nil),  // an origin must match the pattern's host
        MatchCase("https://localhost/user/42", "local", ["id": "42"]),  // localhost is an origin
        MatchCase("myapp://[::1]/user/42", nil),  // an IP literal is an origin
        MatchCase("other://user/42", "global", ["id": "42"]),  // global serves schemes without their own match
        MatchCase("myapp://user/42/extra", "global2", ["id": "42"]),  // ... and schemes whose own routes did not match
    ])
    func readsTheHostAsPathOrOriginUnderAuto(_ row: MatchCase) throws {
        let table = try RouteTable.make([
            ("deep", "myapp://user/:id"),
            ("universal", "https://example.com/user/:id"),
            ("local", "https://localhost/user/:id"),
            ("global", "/user/:id"),
            ("global2", "/user/:id/extra"),
        ])
        try table.expect(row)
    }

    /// A pattern's host is read like a URL's: case-insensitively, in the pattern too.
    @Test(arguments: [
        MatchCase("myapp://localhost/a", "upperLocal"),
        MatchCase("MYAPP://LOCALHOST/a", "upperLocal"),
        MatchCase("myapp://other/b", "upperScheme"),
        MatchCase("https://m.example.com/c", "upperOrigin"),
        MatchCase("myapp://café/d", "accented"),
    ])
    func readsUpperCaseHostsInPatternsLikeURLHosts(_ row: MatchCase) throws {
        let table = try RouteTable.make([
            ("upperLocal", "myapp://LocalHost/a"),
            ("upperScheme", "MyApp://other/b"),
            ("upperOrigin", "https://M.Example.COM/c"),
            ("accented", "myapp://café/d"),
        ])
        try table.expect(row)
    }

    /// Constants are compared as bytes: precomposed "é" and "e" + U+0301 are canonically
    /// equivalent `String`s but different segments.
    @Test(arguments: [
        MatchCase("myapp://caf%C3%A9", "precomposed"),
        MatchCase("myapp://cafe%CC%81", "combining"),
        MatchCase("myapp://x/caf%C3%A9/y", "precomposedInside"),
        MatchCase("myapp://x/cafe%CC%81/y", "combiningInside"),
    ])
    func keepsCanonicallyEquivalentConstantsApart(_ row: MatchCase) throws {
        let table = try RouteTable.make([
            ("precomposed", "/caf%C3%A9"),
            ("combining", "/cafe%CC%81"),
            ("precomposedInside", "/x/caf%C3%A9/y"),
            ("combiningInside", "/x/cafe%CC%81/y"),
        ])
        try table.expect(row)
    }

    @Test func prefersTheSchemesOwnRouteOverAGlobalOne() throws {
        let table = try RouteTable(routes: [
            Route(name: "global", pattern: "/user/:id", priority: 100),
            Route(name: "own", pattern: "myapp://user/:id"),
        ])
        #expect(try table.match("myapp://user/1")?.route.name == "own")
        #expect(try table.matches(URI("myapp://user/1")).map(\.route.name) == ["own", "global"])
    }

    @Test func honoursHostAsPathAlwaysAndNever() throws {
        let always = try RouteTable.make(
            [("dotted", "/example.com/x"), ("plain", "/user/:id")], options: RouteTableOptions(hostAsPath: .always))
        #expect(try always.match("https://example.com/x")?.route.name == "dotted")
        #expect(try always.match("myapp://user/1")?.route.name == "plain")

        let never = try RouteTable.make(
            [("origin", "myapp://user/:id"), ("pathOnly", "/user/:id")], options: RouteTableOptions(hostAsPath: .never))
        #expect(try never.match("myapp://user/1")?.route.name == "origin")
        #expect(try never.match("myapp://user/1")?.parameters["id"] == "1")
        #expect(try never.match("myapp:/user/1")?.route.name == "pathOnly")
        #expect(try never.match("myapp://other/1") == nil)
    }

    /// Regression: `myapp://:id([0-9]+)/x` was refused ("an optional group starts with
    /// "/""): the host stopped at "(", so the regex was read as a group. A "." in the
    /// regex does not make the parameter an origin.
    @Test(arguments: [
        MatchCase("myapp://12/x", "digits", ["id": "12"]),
        MatchCase("myapp://ab/x", nil),
        MatchCase("myapp://a-b/y", "dotted", ["name": "a-b"]),
        MatchCase("myapp:/a-b/y", "dotted", ["name": "a-b"]),
    ])
    func takesARegexOnTheHostReadAsAPath(_ row: MatchCase) throws {
        let table = try RouteTable.make([
            ("digits", "myapp://:id([0-9]+)/x"), ("dotted", #"myapp://:name([a-z\.-]+)/y"#),
        ])
        try table.expect(row)
    }

    @Test func capturesAHostSegmentParameterAndCatchAllAcrossIt() throws {
        let table = try RouteTable.make([("module", "flutter://:module/**")])
        let match = try #require(try table.match("flutter://moments/feed/7?x=1"))
        #expect(match.parameters["module"] == "moments")
        #expect(match.parameters["**"] == "feed/7")
        let all = try RouteTable.make([("everything", "h5://**")])
        #expect(try all.match("h5://shop/cart/1")?.parameters["**"] == "shop/cart/1")
    }

    // MARK: Query

    @Test func keepsTheQueryInOrderWithRepeatedAndEmptyKeys() throws {
        let table = try RouteTable.make([("web", "myapp://web")])
        let match = try #require(
            try table.match("myapp://web?url=https%3A%2F%2Fa.com%2Fx%3Fq%3D1%26r%3D2&t=a+b&t=c&flag&=v"))
        #expect(match.query.first("url") == "https://a.com/x?q=1&r=2")
        #expect(match.query.all("t") == ["a b", "c"])
        #expect(match.query.last("t") == "c")
        #expect(match.query.first("flag") == "")
        #expect(match.query.first("") == "v")
        let raw = try RouteTable.make([("web", "myapp://web")], options: RouteTableOptions(plusAsSpace: false))
        #expect(try raw.match("myapp://web?t=a+b")?.query.first("t") == "a+b")
    }

    @Test func fillsDeclaredDefaultsAndConvertsQueryValues() throws {
        let table = try RouteTable(routes: [
            Route(
                name: "list", pattern: "/list",
                parameters: [
                    ParameterDeclaration("page", type: .int, defaultValue: .int(1)),
                    ParameterDeclaration("size", type: .int),
                ])
        ])
        let match = try #require(try table.match("x:/list?size=20"))
        #expect(match.value("page") == .int(1))
        #expect(match.value("size") == .int(20))
        #expect(try table.match("x:/list?size=big")?.value("size") == nil)
    }

    // MARK: Two tables

    static let digits = try! RouteTable.make([("digits", "/p/:v([0-9]+)"), ("q", "/q/:n")])
    static let letters = try! RouteTable.make([("letters", "/p/:v([a-z]+)"), ("any", "/**")])

    /// Each table's regex is its regex 0: a search that read the other trie's regexes
    /// would take the wrong route.
    @Test(
        arguments: [
            ("x:/p/42", "digits", "any"),
            ("x:/p/ab", nil, "letters"),
            ("x:/p/-", nil, "any"),
            ("x:/q/1", "q", "any"),
        ] as [(String, String?, String?)])
    func matchesTwoTablesFromOneReadingAsEachAlone(_ url: String, _ here: String?, _ other: String?) throws {
        let uri = try URI(url)
        let both = Self.digits.match(uri, alsoIn: Self.letters)
        #expect(both.here?.route.name == here)
        #expect(both.other?.route.name == other)
        #expect(both.here?.parameters == Self.digits.match(uri)?.parameters)
        #expect(both.other?.parameters == Self.letters.match(uri)?.parameters)
    }
}
