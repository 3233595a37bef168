import Foundation
import Junction
import JunctionAuthoring
import Testing

/// `route =` and `routes =` take route names, `pattern =` and `patterns =` URL patterns:
/// a name that designates no route is an error at its column naming the route meant.
@Suite struct InterceptorTargetTests {
    static let routes = """
        routes:
          - { name: wallet, pattern: "myapp://wallet/**" }
          - { name: orders, pattern: "myapp://orders/:id", params: { id: int } }
          - { name: home, pattern: "myapp://home" }
        """

    /// The bug this pins: `route = "myapp://wallet"` guarded only the bare URL.
    @Test(arguments: [
        (
            #"interceptor { name = "guard", route = "myapp://wallet", run = function() end }"#,
            #"rules.lua:1:39: error: interceptor "guard": route = "myapp://wallet" is a URL pattern, but route = takes route names; the route "wallet" (myapp://wallet/**) matches it: write route = "wallet" to guard that whole route, or pattern = "myapp://wallet" to guard only the URLs this pattern matches"#
        ),
        (
            #"interceptor { name = "guard", route = "myapp://orders/:id", run = function() end }"#,
            #"rules.lua:1:39: error: interceptor "guard": route = "myapp://orders/:id" is a URL pattern, but route = takes route names; the route "orders" (myapp://orders/:id) matches it: write route = "orders" to guard that whole route, or pattern = "myapp://orders/:id" to guard only the URLs this pattern matches"#
        ),
        (
            #"interceptor { name = "guard", route = "/nowhere/**", run = function() end }"#,
            #"rules.lua:1:39: error: interceptor "guard": route = "/nowhere/**" is a URL pattern, but route = takes route names; write pattern = "/nowhere/**" to guard the URLs it matches"#
        ),
        (
            "\n\ninterceptor {\n  name = 'guard',\n  routes = { 'home', 'walet' },\n  run = function() end }",
            #"rules.lua:5:22: error: interceptor "guard": "walet" in routes = { … } names no route; did you mean "wallet"? (route names are in the route table; for a URL pattern write pattern = "walet")"#
        ),
        (
            #"interceptor { name = "guard", route = "basket", run = function() end }"#,
            #"rules.lua:1:39: error: interceptor "guard": route = "basket" names no route (route names are in the route table; for a URL pattern write pattern = "basket")"#
        ),
    ])
    func aRouteNameMustNameARoute(rules: String, expected: String) throws {
        let error = #expect(throws: BundleError.self) { try Self.decider(rules: rules) }
        #expect(error?.diagnostics.map { Self.relative($0.description) } == [expected])
    }

    /// A bundle's names are untrusted: a huge name gives a message of ordinary length, and
    /// hundreds of unknown names give twenty explained errors and one that counts the rest.
    @Test func boundsTheErrorsOfUnknownNames() throws {
        let huge = String(repeating: "w", count: 1_000_000)
        let one = #expect(throws: BundleError.self) {
            try Self.decider(rules: "interceptor { name = 'g', route = '\(huge)', run = function() end }")
        }
        let message = try #require(one?.diagnostics.first?.description)
        #expect(message.utf8.count < 400, "\(message.prefix(400))")
        #expect(message.contains("route = \"" + String(repeating: "w", count: 64) + "…\" names no route"))

        let many = #expect(throws: BundleError.self) {
            try Self.decider(
                rules:
                    "for i = 1, 200 do interceptor { name = 'g' .. i, route = 'nope' .. i, run = function() end } end")
        }
        let diagnostics = many?.diagnostics ?? []
        #expect(diagnostics.count == 21)
        #expect(diagnostics.last?.message == "180 more route names of interceptors name no route; fix the ones above")
    }

    @Test func patternsGuardTheURLsTheyMatchWhateverRouteDecides() throws {
        let decider = try Self.decider(
            rules: """
                interceptor { name = "bare", pattern = "myapp://wallet", run = function() return reject("bare") end }
                interceptor { name = "ids", patterns = { "myapp://orders/:id" }, run = function() return reject("ids") end }
                interceptor { name = "named", route = "home", run = function() return reject("named") end }
                """)
        let table: [(String, String?)] = [
            ("myapp://wallet", "bare"), ("myapp://wallet/pay", nil), ("myapp://orders/7", "ids"),
            ("myapp://home", "named"),
        ]
        for (url, reason) in table {
            let outcome = decider.decide(RouteRequest(url)).outcome
            if case .reject(let rejection) = outcome {
                #expect(rejection.reason == reason, "\(url)")
            } else {
                #expect(reason == nil, "\(url): \(outcome)")
            }
        }
    }

    @Test func aSwiftInterceptorsRouteNameMustNameARoute() throws {
        let table = try RouteTable.load(text: Self.routes, file: "routes.yaml")
        let interceptor = SwiftInterceptor("spy", scope: .routes(["home", "walet"])) { _, _ in .continue }
        let error = #expect(throws: BundleError.self) { try Decider(routes: table, interceptors: [interceptor]) }
        #expect(
            error?.diagnostics.map(\.description) == [
                #"swift:1:1: error: interceptor "spy": "walet" in scope .routes { … } names no route; did you mean "wallet"? (route names are in the route table; for a URL pattern write .pattern("walet"))"#
            ])
        let byPattern = SwiftInterceptor("spy", scope: .pattern("myapp://wallet/**")) { _, _ in
            .reject(reason: "no", code: nil)
        }
        let decider = try Decider(routes: table, interceptors: [byPattern])
        guard case .reject = decider.decide(RouteRequest("myapp://wallet/pay")).outcome else {
            Issue.record("the pattern did not apply")
            return
        }
    }

    // MARK: - Helpers

    static func decider(rules: String) throws -> Decider {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "junction-targets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try "name: t\nversion: 1\n".write(
            to: root.appendingPathComponent("manifest.yaml"), atomically: true, encoding: .utf8)
        try routes.write(to: root.appendingPathComponent("routes.yaml"), atomically: true, encoding: .utf8)
        try rules.write(to: root.appendingPathComponent("rules.lua"), atomically: true, encoding: .utf8)
        return try Decider(bundle: try RuleBundle.load(directory: root.path))
    }

    /// A diagnostic with its file named relative to the bundle.
    static func relative(_ text: String) -> String {
        guard let range = text.range(of: "rules.lua") else { return text }
        return String(text[range.lowerBound...])
    }
}
