import JunctionAuthoring
import JunctionCore
import Testing

@Suite struct ContextSchemaTests {
    static func manifest(_ context: String) -> String {
        "name: shop\nversion: 1\ncontext:\n" + context
    }

    @Test func readsEveryTypeInTheOrderWritten() throws {
        let manifest = try BundleManifest.load(
            text: Self.manifest(
                """
                  app_version: version
                  hour: int
                  score: number
                  locale: "string"
                  vip: bool
                  roles: [string]
                  user: { id: int, age: int }
                  orders: [{ id: int, tags: [string] }]
                  experiments: any
                """), file: "m.yaml")
        let expected: ContextSchema = [
            "app_version": .version, "hour": .int, "score": .number, "locale": .string, "vip": .bool,
            "roles": .list(.string), "user": .table(["id": .int, "age": .int]),
            "orders": .list(.table(["id": .int, "tags": .list(.string)])), "experiments": .any,
        ]
        #expect(manifest.context == expected)
        #expect(manifest.context?.fields.map(\.name).first == "app_version")
        #expect(manifest.context?["user"] == .table(["id": .int, "age": .int]))
        #expect(manifest.context?["user_id"] == nil)
        #expect(
            manifest.context?.description
                == "{ app_version: version, hour: int, score: number, locale: string, vip: bool, roles: [string], user: { id: int, age: int }, orders: [{ id: int, tags: [string] }], experiments: any }"
        )
    }

    @Test func readsASchemaWrittenInJSON() throws {
        let manifest = try BundleManifest.load(
            text: #"{"name": "shop", "version": 1, "context": {"user": {"id": "int"}, "roles": ["string"]}}"#,
            file: "manifest.json")
        #expect(manifest.context == ["user": .table(["id": .int]), "roles": .list(.string)])
    }

    @Test func aManifestWithoutContextDeclaresNothing() throws {
        let manifest = try BundleManifest.load(text: "name: shop\nversion: 1", file: "m.yaml")
        #expect(manifest.context == nil)
    }

    @Test(arguments: [
        (
            "  [app_version]",
            "m.yaml:4:3: error: context must be a mapping of context keys to their types, such as app_version: version"
        ),
        (
            "  id: integer",
            "m.yaml:4:7: error: context key id: unknown type \"integer\"; use string, int, number, bool, version, any, [TYPE] for a list, or { key: TYPE } for a table; did you mean \"int\"?"
        ),
        (
            "  user: { id: intt }",
            "m.yaml:4:15: error: context key user.id: unknown type \"intt\"; use string, int, number, bool, version, any, [TYPE] for a list, or { key: TYPE } for a table; did you mean \"int\"?"
        ),
        (
            "  vip: Boolean",
            "m.yaml:4:8: error: context key vip: unknown type \"Boolean\"; use string, int, number, bool, version, any, [TYPE] for a list, or { key: TYPE } for a table; did you mean \"bool\"?"
        ),
        (
            "  score: float",
            "m.yaml:4:10: error: context key score: unknown type \"float\"; use string, int, number, bool, version, any, [TYPE] for a list, or { key: TYPE } for a table; did you mean \"number\"?"
        ),
        (
            "  roles: [strin]",
            "m.yaml:4:11: error: context key roles[]: unknown type \"strin\"; use string, int, number, bool, version, any, [TYPE] for a list, or { key: TYPE } for a table; did you mean \"string\"?"
        ),
        (
            "  fruit: banana",
            "m.yaml:4:10: error: context key fruit: unknown type \"banana\"; use string, int, number, bool, version, any, [TYPE] for a list, or { key: TYPE } for a table"
        ),
        (
            "  user:",
            "m.yaml:4:8: error: context key user has no type; give one: string, int, number, bool, version, any, [TYPE] for a list, or { key: TYPE } for a table"
        ),
        (
            "  roles: []",
            "m.yaml:4:10: error: context key roles: a list type has exactly one item, the type of every item, such as [string]"
        ),
        (
            "  roles: [string, int]",
            "m.yaml:4:10: error: context key roles: a list type has exactly one item, the type of every item, such as [string]"
        ),
        (
            "  user: {}",
            "m.yaml:4:9: error: context key user: an empty table declares no keys; declare them ({ id: int }) or write any"
        ),
        (
            "  app-version: version",
            "m.yaml:4:3: error: context key \"app-version\" must be a name rules can write as ctx.NAME: letters, digits and \"_\", not starting with a digit"
        ),
        (
            "  user: { 1st: int }",
            "m.yaml:4:11: error: context key \"user.1st\" must be a name rules can write as ctx.NAME: letters, digits and \"_\", not starting with a digit"
        ),
        (
            "  flags: { end: bool }",
            "m.yaml:4:12: error: context key \"flags.end\" is a Lua keyword: rules could not write ctx.end"
        ),
        (
            "  " + String(repeating: "k", count: 65) + ": int",
            "m.yaml:4:3: error: context key \"" + String(repeating: "k", count: 63)
                + "…\" is longer than 64 characters"
        ),
        (
            "  user: { id: int, id: int }",
            "m.yaml:4:11: error: duplicate key \"id\" in this mapping; keep one"
        ),
    ])
    func explainsEachMistakeInTheSchemaWhereItIs(_ context: String, _ expected: String) {
        let error = #expect(throws: BundleError.self) {
            try BundleManifest.load(text: Self.manifest(context), file: "m.yaml")
        }
        #expect(error?.diagnostics.map(\.description) == [expected])
    }

    @Test func nestsAtMostEightLevels() throws {
        func nested(_ levels: Int) -> String {
            "  k: " + String(repeating: "{ k: ", count: levels - 1) + "int" + String(repeating: " }", count: levels - 1)
        }
        func lists(_ levels: Int) -> String {
            "  k: " + String(repeating: "[", count: levels - 1) + "int" + String(repeating: "]", count: levels - 1)
        }
        #expect(throws: Never.self) { try BundleManifest.load(text: Self.manifest(nested(8)), file: "m.yaml") }
        #expect(throws: Never.self) { try BundleManifest.load(text: Self.manifest(lists(8)), file: "m.yaml") }
        let tables = #expect(throws: BundleError.self) {
            try BundleManifest.load(text: Self.manifest(nested(9)), file: "m.yaml")
        }
        #expect(
            tables?.diagnostics.map(\.description) == [
                "m.yaml:4:41: error: context key k.k.k.k.k.k.k.k nests deeper than 8 levels of tables and lists; flatten it, or write any"
            ])
        let nestedLists = #expect(throws: BundleError.self) {
            try BundleManifest.load(text: Self.manifest(lists(9)), file: "m.yaml")
        }
        #expect(
            nestedLists?.diagnostics.map(\.description) == [
                "m.yaml:4:13: error: context key k[][][][][][][] nests deeper than 8 levels of tables and lists; flatten it, or write any"
            ])
    }

    @Test func declaresAtMostAThousandKeys() throws {
        func keys(_ count: Int) -> String {
            (1...count).map { "  k\($0): int" }.joined(separator: "\n")
        }
        let manifest = try BundleManifest.load(text: Self.manifest(keys(1_000)), file: "m.yaml")
        #expect(manifest.context?.fields.count == 1_000)
        let error = #expect(throws: BundleError.self) {
            try BundleManifest.load(text: Self.manifest(keys(1_001) + "\n  more: { a: int }"), file: "m.yaml")
        }
        #expect(
            error?.diagnostics.map(\.description) == [
                "m.yaml:1004:3: error: the context schema declares more than 1000 keys; declare the ones rules read, and any for free-form data"
            ])
    }

    @Test func countsNestedKeysTowardsTheBound() throws {
        let inner = (1...999).map { "k\($0): int" }.joined(separator: ", ")
        let error = #expect(throws: BundleError.self) {
            try BundleManifest.load(text: Self.manifest("  user: { \(inner), one_more: int }"), file: "m.yaml")
        }
        #expect(
            error?.diagnostics.first?.description.hasSuffix(
                "error: the context schema declares more than 1000 keys; declare the ones rules read, and any for free-form data"
            ) == true)
    }
}
