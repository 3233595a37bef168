import Junction
import JunctionAuthoring
import Testing

/// The generator's choices, table by table: names, signatures, the URL each shape builds,
/// and the names it refuses.
@Suite struct SwiftRouteCodeTests {
    static func generate(_ yaml: String, typeName: String = "Routes", access: SwiftRouteCodeOptions.Access = .internal)
        throws -> String
    {
        let table = try RouteTable.load(text: yaml, file: "routes.yaml")
        return try SwiftRouteCode.generate(
            table, source: "routes.yaml",
            options: SwiftRouteCodeOptions(typeName: typeName, access: access, command: "junction codegen"))
    }

    static func routes(_ lines: String) -> String { "routes:\n" + lines }

    @Test(arguments: [
        (
            "  - { name: user.profile, pattern: \"myapp://user/:id\", params: { id: int } }\n",
            "static func userProfile(id: Int) -> String {", "let _path = \"myapp://user/\" + _encoded(_text(id))"
        ),
        (
            "  - { name: a, pattern: \"myapp://a(/:x(/:y))\" }\n", "static func a(x: String? = nil, y: String? = nil)",
            "preconditionFailure(\"Routes.a: the optional groups of myapp://a(/:x(/:y)) nest"
        ),
        (
            "  - { name: a, pattern: \"myapp://a(/:x(/:y))\" }\n", "if let x, let y {",
            "} else if let x, y == nil {"
        ),
        (
            "  - { name: default, pattern: \"myapp://d/:in\" }\n", "static func `default`(`in`: String)",
            "static let `default` = \"default\""
        ),
        (
            "  - { name: 2fa.setup, pattern: \"myapp://2fa\" }\n", "static func route2faSetup() -> String",
            "static let route2faSetup = \"2fa.setup\""
        ),
        (
            "  - { name: p, pattern: \"myapp://p/*/x/*\" }\n", "static func p(segment: String, segment2: String)",
            "\"myapp://p/\" + _encoded(_text(segment)) + \"/x/\" + _encoded(_text(segment2))"
        ),
        (
            "  - { name: s, pattern: \"https://shop.example.com/item/:sku\" }\n", "static func s(sku: String)",
            "\"https://shop.example.com/item/\" + _encoded(_text(sku))"
        ),
        (
            "  - { name: g, pattern: \"/files/**\" }\n", "static func g(rest: String = \"\", origin: String)",
            "_joined(origin, \"files\" + (rest.isEmpty ? \"\" : \"/\" + _encodedPath(rest)))"
        ),
        (
            "  - name: q\n    pattern: myapp://q\n    params:\n      page: { type: int, default: 1 }\n      sort: { type: string, required: true }\n      debug: bool\n      draft: uuid\n",
            "static func q(page: Int = 1, sort: String, debug: Bool? = nil, draft: UUID? = nil)",
            "if page != 1 { _query.append(\"page=\" + _encoded(_text(page))) }"
        ),
        (
            "  - { name: c, pattern: \"myapp://caf\\u00e9 au lait\" }\n", "static func c() -> String",
            "\"myapp://caf%C3%A9%20au%20lait\""
        ),
    ])
    func writesEachRoute(routes: String, signature: String, body: String) throws {
        let code = try Self.generate(Self.routes(routes))
        #expect(code.contains(signature), "\(code)")
        #expect(code.contains(body), "\(code)")
    }

    @Test(arguments: [
        (
            "  - { name: user.profile, pattern: \"myapp://a\" }\n  - { name: user_profile, pattern: \"myapp://b\" }\n",
            "routes \"user.profile\" and \"user_profile\" would both be Routes.userProfile; rename one of them"
        ),
        (
            "  - name: a\n    pattern: \"myapp://a/:order_id\"\n    params:\n      orderId: string\n",
            "route \"a\": parameters \"order_id\" and \"orderId\" would both be the argument orderId; rename one of them"
        ),
        (
            "  - { name: \"..\", pattern: \"myapp://a\" }\n",
            "route \"..\": its name has no letter or digit to name a function by"
        ),
    ])
    func refusesNamesSwiftCannotTellApart(routes: String, message: String) throws {
        #expect(throws: SwiftRouteCodeError(message)) { try Self.generate(Self.routes(routes)) }
    }

    @Test(arguments: ["routes", "My Routes", "Routes!", ""])
    func refusesATypeNameThatIsNotOne(_ name: String) throws {
        let error = #expect(throws: SwiftRouteCodeError.self) {
            try Self.generate(Self.routes("  - { name: a, pattern: \"myapp://a\" }\n"), typeName: name)
        }
        #expect(error?.message.hasPrefix("--type-name \(name): a Swift type name") == true)
    }

    @Test func isTheSameForTheSameTableAndNamesItsTypeAndAccess() throws {
        let yaml = Self.routes("  - { name: a, pattern: \"myapp://a/:x\" }\n  - { name: b, pattern: \"myapp://b\" }\n")
        let first = try Self.generate(yaml, typeName: "AppLinks", access: .public)
        #expect(first == (try Self.generate(yaml, typeName: "AppLinks", access: .public)))
        #expect(first.contains("public enum AppLinks {"))
        #expect(first.contains("public static func a(x: String) -> String {"))
        #expect(first.hasPrefix("// Generated by `junction codegen` from routes.yaml.\n"))
        #expect(first.range(of: "static func a(")!.lowerBound < first.range(of: "static func b(")!.lowerBound)
    }
}
