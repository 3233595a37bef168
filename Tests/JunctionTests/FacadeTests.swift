import Junction
import Testing

/// `import Junction` alone must give an app the whole routing API.
@Suite struct FacadeTests {
    @Test func exposesURIsAndRouteTablesThroughOneImport() throws {
        let table = try RouteTable(routes: [
            Route(name: "user", pattern: "myapp://user/:id", parameters: [ParameterDeclaration("id", type: .int)])
        ])
        let match = try #require(try table.match("myapp://user/42?from=push"))
        #expect(match.value("id") == .int(42))
        #expect(match.query["from"] == "push")
        #expect(try URI("myapp://user/42").host == "user")
    }
}
