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
