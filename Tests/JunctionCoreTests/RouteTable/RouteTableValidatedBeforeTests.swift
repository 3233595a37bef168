@testable import JunctionCore
import Testing

/// A table compiled without being validated again (an update this device accepted before,
/// re-opened at launch) matches exactly as the validated build of the same routes; and
/// routes that would not have passed are still refused, not compiled wrong.
@Suite struct RouteTableValidatedBeforeTests {
    static let routes: [Route] = [
        Route(name: "home", pattern: "myapp://home"),
        Route(
            name: "user", pattern: "myapp://user/:id(/:tab)", priority: 1,
            parameters: [ParameterDeclaration("id", type: .int)]),
        Route(name: "user.any", pattern: "myapp://user/:name"),
        Route(name: "item", pattern: "myapp://shop/item/:sku([A-Z]{2}[0-9]+)"),
        Route(name: "shop.detail", pattern: "myapp://shop/*/detail"),
        Route(name: "files", pattern: "myapp://static/**"),
        Route(name: "web", pattern: "https://example.com/a/:x"),
        Route(name: "global.help", pattern: "/help(/:topic)"),
        Route(name: "global.any", pattern: "/**", priority: -1),
        Route(name: "other", pattern: "other://Home/Page"),
    ]

    static let urls = [
        "myapp://home", "myapp://HOME", "myapp://user/7", "myapp://user/7/posts", "myapp://user/bob",
        "myapp://shop/item/AB12", "myapp://shop/item/ab12", "myapp://shop/x/detail", "myapp://static/a/b.png",
        "https://example.com/a/1", "https://example.com/b", "myapp://help", "myapp://help/login", "other://home/page",
        "myapp://nowhere/at/all", "nothing://x",
    ]

    /// What a table says about a URL: every match in order with its parameters, and why
    /// the others were turned away.
    static func reading(_ table: RouteTable, _ url: String) throws -> String {
        let uri = try URI(url)
        let matches = table.matches(uri).map { "\($0.route.name) \($0.parameters)" }
        return "\(matches) \(table.explain(uri).rejections)"
    }

    @Test(arguments: [HostAsPath.auto, .always, .never], [true, false])
    func matchesAsTheValidatedBuild(hostAsPath: HostAsPath, caseSensitive: Bool) throws {
        var builder = RouteTableBuilder(
            options: RouteTableOptions(hostAsPath: hostAsPath, caseSensitive: caseSensitive))
        for route in Self.routes { builder.add(route) }
        let validated = try builder.build()
        let reopened = try builder.buildValidatedBefore()
        for url in Self.urls {
            #expect(try Self.reading(reopened, url) == Self.reading(validated, url), "\(url)")
        }
        for route in Self.routes {
            #expect(reopened.index(ofRouteNamed: route.name) == validated.index(ofRouteNamed: route.name))
        }
    }

    @Test func aPatternThatDoesNotParseIsRefusedWithTheValidatedBuildsDiagnostics() {
        var builder = RouteTableBuilder()
        builder.add(Route(name: "a", pattern: "myapp://a"))
        builder.add(Route(name: "b", pattern: "myapp://b/:"))
        let validated = #expect(throws: RouteTableError.self) { try builder.build() }
        let reopened = #expect(throws: RouteTableError.self) { try builder.buildValidatedBefore() }
        #expect(reopened?.description == validated?.description)
    }

    @Test func canonicalJSONReopenedMatchesAsRead() throws {
        var builder = RouteTableBuilder()
        for route in Self.routes { builder.add(route) }
        let bytes = try builder.build().canonicalJSON()
        let read = try RouteTable(canonicalJSON: bytes)
        let reopened = try RouteTable(canonicalJSON: bytes, validatedBefore: true)
        #expect(reopened.routes.map(\.name) == read.routes.map(\.name))
        for url in Self.urls { #expect(try Self.reading(reopened, url) == Self.reading(read, url), "\(url)") }
    }
}

/// A table re-opened from bytes validated before compiles as URLs use it, and answers every
/// URL — best match, the two-table match, all matches, explanations, names — exactly as the
/// table read in full does, whatever the routes' heads and the URLs' shapes.
@Suite struct DeferredRouteTableTests {
    static let routes: [Route] =
        RouteTableValidatedBeforeTests.routes + [
            Route(name: "module0.list", pattern: "myapp://module0/list"),
            Route(
                name: "module0.item", pattern: "myapp://module0/item/:id",
                parameters: [ParameterDeclaration("id", type: .int)]),
            Route(name: "module1.item", pattern: "myapp://Module1/item/:id", priority: 2),
            Route(name: "module.any", pattern: "myapp://:module/item/:id"),
            Route(name: "module.star", pattern: "myapp://*/detail"),
            Route(name: "catch", pattern: "myapp://**", priority: -5),
            Route(name: "opt.host", pattern: "myapp://(shop/)cart/:id"),
            Route(name: "escaped", pattern: "myapp://caf%C3%A9/menu"),
            Route(name: "root.origin", pattern: "https://example.com"),
            Route(name: "local", pattern: "http://localhost/x/:y"),
            Route(name: "global.first", pattern: "/module0/help"),
            Route(name: "relative.user", pattern: "/user/:id/avatar"),
            Route(name: "scheme.only", pattern: "other://"),
            Route(name: "group.later", pattern: "myapp://shop/(deal/)list", target: "ShopList"),
            Route(name: "regex.later", pattern: "/static/:file([a-z]+\\.png)"),
        ]

    static let urls =
        RouteTableValidatedBeforeTests.urls + [
            "myapp://module0/list", "myapp://MODULE0/list", "myapp://module0/item/12", "myapp://module0/item/x",
            "myapp://module1/item/3", "myapp://module7/item/3", "myapp://anything/detail", "myapp://cart/9",
            "myapp://shop/cart/9", "myapp://café/menu", "myapp://caf%C3%A9/menu", "https://example.com",
            "https://example.com/", "http://localhost/x/1", "myapp://module0/help", "other://module0/help",
            "/user/3/avatar", "myapp://user/3/avatar", "other://", "other://x", "myapp://", "myapp:///list",
            "MYAPP://home", "x-unknown://home", "myapp://m%6Fdule0/list", "myapp://module0", "https://EXAMPLE.com/a/2",
            "myapp://shop/deal/list", "myapp://shop/list", "myapp://static/a.png", "/static/b.png",
        ]

    static func table(hostAsPath: HostAsPath, caseSensitive: Bool, routes: [Route] = routes) throws -> (
        RouteTable, RouteTable
    ) {
        var builder = RouteTableBuilder(
            options: RouteTableOptions(hostAsPath: hostAsPath, caseSensitive: caseSensitive))
        // A group in the host's place needs hosts that can be paths.
        for route in routes where hostAsPath != .never || route.name != "opt.host" { builder.add(route) }
        let bytes = try builder.build().canonicalJSON()
        return (try RouteTable(canonicalJSON: bytes), try RouteTable(canonicalJSON: bytes, validatedBefore: true))
    }

    static func best(_ match: RouteMatch?) -> String {
        match.map { "\($0.route.name) \($0.parameters) #\($0.routeIndex)" } ?? "-"
    }

    @Test(arguments: [HostAsPath.auto, .always, .never], [true, false])
    func answersAsTheTableReadInFull(hostAsPath: HostAsPath, caseSensitive: Bool) throws {
        let (read, deferred) = try Self.table(hostAsPath: hostAsPath, caseSensitive: caseSensitive)
        #expect(deferred.deferredProgress?.shards == 0)
        let redirects = try Self.table(
            hostAsPath: hostAsPath, caseSensitive: caseSensitive,
            routes: [Route(name: "r.home", pattern: "myapp://home"), Route(name: "r.any", pattern: "myapp://:x/list")])
        for url in Self.urls {
            guard let uri = try? URI(url) else { continue }
            #expect(Self.best(deferred.match(uri)) == Self.best(read.match(uri)), "\(url)")
            let both = deferred.match(uri, alsoIn: redirects.1)
            let bothRead = read.match(uri, alsoIn: redirects.0)
            #expect(Self.best(both.here) == Self.best(bothRead.here), "\(url)")
            #expect(Self.best(both.other) == Self.best(bothRead.other), "\(url)")
        }
        // Shards answered every URL so far, or the whole table for one whose first segment
        // is not ASCII.
        let progress = try #require(deferred.deferredProgress)
        #expect(progress.shards > 3 || progress.whole)
        #expect(deferred.count == read.count)
        for (index, route) in read.routes.enumerated() {
            #expect(deferred.route(named: route.name) == route)
            #expect(deferred.groups(ofRouteAt: index) == route.groups)
            #expect(deferred.nameAndTarget(ofRouteAt: index) == (route.name, route.target))
        }
        // What needs every route compiles the whole table, which answers alike.
        for url in Self.urls {
            guard let uri = try? URI(url) else { continue }
            #expect(deferred.matches(uri).map(Self.best) == read.matches(uri).map(Self.best), "\(url)")
            let (explained, explainedRead) = (deferred.explain(uri), read.explain(uri))
            #expect(explained.candidates.map(Self.best) == explainedRead.candidates.map(Self.best), "\(url)")
            #expect(explained.rejections == explainedRead.rejections, "\(url)")
            #expect(explained.namespaceFound == explainedRead.namespaceFound, "\(url)")
            #expect(Self.best(deferred.match(uri)) == Self.best(read.match(uri)), "\(url)")
        }
        #expect(deferred.routes == read.routes)
        #expect(deferred.deferredProgress?.whole == true)
    }

    /// URLs choose which shards are made; however many first segments they bring, the
    /// shards stay within their bounds and then the whole table answers.
    @Test func firstSegmentsFromURLsCannotGrowItWithoutBound() throws {
        let many =
            (0..<40).map { Route(name: "m\($0)", pattern: "myapp://m\($0)/x/:id") } + [
                Route(name: "any", pattern: "myapp://:module/y")
            ]
        let (read, deferred) = try Self.table(hostAsPath: .auto, caseSensitive: false, routes: many)
        for n in 0..<2_000 {
            let url = "myapp://\(n % 3 == 0 ? "m\(n % 50)" : "seg\(n)")/\(n % 2 == 0 ? "x/7" : "y")"
            let uri = try URI(url)
            #expect(Self.best(deferred.match(uri)) == Self.best(read.match(uri)), "\(url)")
        }
        // 40 filed first segments and one shard for the rest, then no more.
        #expect(deferred.deferredProgress?.shards == 41)
        #expect(deferred.deferredProgress?.whole == false)
        // Schemes and origins are the URL's to choose: past the shards' cap the whole table
        // is compiled, and answers.
        for n in 0..<(DeferredRoutes.maximumShards + 10) {
            for url in ["s\(n)://m1/x/2", "https://h\(n).example/m1/x/2"] {
                let uri = try URI(url)
                #expect(Self.best(deferred.match(uri)) == Self.best(read.match(uri)), "\(url)")
            }
        }
        #expect(deferred.deferredProgress?.whole == true)
        #expect(Self.best(deferred.match(try URI("myapp://m3/x/1"))) == "m3 id=1 #3")
    }

    /// Many threads matching at once, while shards are made, answer alike.
    @Test func concurrentMatchingAnswersAlike() async throws {
        let (read, deferred) = try Self.table(hostAsPath: .auto, caseSensitive: false)
        let urls = Self.urls.compactMap { try? URI($0) }
        let expected = urls.map { Self.best(read.match($0)) }
        await withTaskGroup(of: (Int, [String]).self) { group in
            for offset in 0..<8 {
                group.addTask {
                    let order = (0..<urls.count).map { ($0 + offset * 3) % urls.count }
                    return (offset, order.map { Self.best(deferred.match(urls[$0])) })
                }
            }
            for await (offset, answers) in group {
                let order = (0..<urls.count).map { ($0 + offset * 3) % urls.count }
                #expect(answers == order.map { expected[$0] })
            }
        }
        for (uri, answer) in zip(urls, expected) { #expect(Self.best(deferred.match(uri)) == answer) }
    }
}
