import Foundation
import Junction
import JunctionAuthoring
import Testing

@Suite struct DeciderContextSchemaTests {
    static func decider(manifest: String) throws -> Decider {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("junction-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try manifest.write(to: root.appendingPathComponent("manifest.yaml"), atomically: true, encoding: .utf8)
        try "routes:\n  - { name: home, pattern: \"myapp://home\" }\n".write(
            to: root.appendingPathComponent("routes.yaml"), atomically: true, encoding: .utf8)
        try "group('none', function(req, ctx) return reject('x') end)\n".write(
            to: root.appendingPathComponent("rules.lua"), atomically: true, encoding: .utf8)
        return try Decider(bundle: try RuleBundle.load(directory: root.path))
    }

    @Test func exposesTheBundlesSchemaForTheAppToValidateWith() throws {
        let decider = try Self.decider(manifest: "name: s\nversion: 1\ncontext: { user: { id: int } }\n")
        let schema = try #require(decider.contextSchema)
        #expect(schema == ["user": .table(["id": .int])])
        let snapshot = ContextSnapshot(["user": ["id": "7"]])
        #expect(snapshot.validate(against: schema).map(\.description) == ["user.id: expected int, found string"])
        // Deciding does not validate: a snapshot that does not fit is the app's to check.
        #expect(decider.decide(RouteRequest("myapp://home"), context: snapshot).match?.route.name == "home")
    }

    @Test func withoutASchemaThereIsNone() throws {
        #expect(try Self.decider(manifest: "name: s\nversion: 1\n").contextSchema == nil)
        let routesOnly = try Decider(routes: RouteTable(routes: []))
        #expect(routesOnly.contextSchema == nil)
    }
}
