import JunctionCore
import Testing

@Suite struct ContextSnapshotValidationTests {
    static let schema: ContextSchema = [
        "app_version": .version, "hour": .int, "score": .number, "device_id": .string,
        "user": .table(["id": .int, "age": .int]), "flags": .table(["native_live": .bool]), "roles": .list(.string),
        "orders": .list(.table(["id": .int])), "extra": .any,
    ]

    @Test func aSnapshotThatFitsHasNoProblems() {
        let snapshot = ContextSnapshot([
            "app_version": "6.0.0-beta.1", "hour": 22, "score": 2, "device_id": "d1", "user": ["id": 7, "age": 15],
            "flags": ["native_live": true], "roles": ["admin"], "orders": [["id": 1]],
            "extra": ["anything": [1, "x", ["deep": true]]],
        ])
        #expect(Self.schema.validate(snapshot) == [])
        #expect(snapshot.validate(against: Self.schema) == [])
        #expect(Self.schema.validate(ContextSnapshot(["user": .nil, "score": 2.5, "device_id": .bytes([0xFF])])) == [])
        // An empty Lua table is an empty list and an empty table alike.
        #expect(Self.schema.validate(ContextSnapshot(["roles": [:], "user": .array([])])) == [])
    }

    @Test(
        arguments: [
            (["hour": "22"], ["hour: expected int, found string"]),
            (["hour": 22.0], ["hour: expected int, found number"]),
            (["score": true], ["score: expected number, found bool"]),
            (["app_version": "soon"], ["app_version: expected version, found a string that is not one"]),
            (["app_version": 6.0], ["app_version: expected version, found number"]),
            (["device_id": 42], ["device_id: expected string, found int"]),
            (["user_id": 7], ["user_id: not declared in the context schema; did you mean \"user.id\"?"]),
            (["user": ["idd": 7]], ["user.idd: not declared in the context schema; did you mean \"user.id\"?"]),
            (["colour": "red"], ["colour: not declared in the context schema"]),
            (["user": 7], ["user: expected a table, found int"]),
            (["roles": "admin"], ["roles: expected [string], found string"]),
            (
                ["roles": ["a", 5, ["b"]]],
                ["roles[2]: expected string, found int", "roles[3]: expected string, found list"]
            ),
            (
                ["orders": [["id": 1], ["id": "2", "note": "x"]]],
                [
                    "orders[2].id: expected int, found string", "orders[2].note: not declared in the context schema",
                ]
            ),
            (
                ["flags": ["native_live": "yes", "dark": true], "hour": "1"],
                [
                    "flags.dark: not declared in the context schema", "flags.native_live: expected bool, found string",
                    "hour: expected int, found string",
                ]
            ),
        ] as [([String: RuleValue], [String])])
    func namesEachProblemByPathTypeAndKind(_ values: [String: RuleValue], _ expected: [String]) {
        #expect(Self.schema.validate(ContextSnapshot(values)).map(\.description) == expected)
    }

    @Test func problemsAreStructuredAndCarryNoValues() {
        let problems = Self.schema.validate(ContextSnapshot(["user": ["id": "secret@example.com"], "user_id": 7]))
        #expect(
            problems == [
                ContextProblem(.wrongType, path: "user.id", expected: .int, found: "string"),
                ContextProblem(.undeclaredKey, path: "user_id", expected: nil, found: "int", suggestion: "user.id"),
            ])
        #expect(problems.map(\.kind.description) == ["wrong_type", "undeclared_key"])
        #expect(!problems.map(\.description).joined().contains("secret"))
    }

    @Test func stopsAfterAHundredProblems() {
        var values: [String: RuleValue] = [:]
        for index in 0..<100_000 { values["key\(index)"] = .int(Int64(index)) }
        let problems = Self.schema.validate(ContextSnapshot(values))
        #expect(problems.count == ContextSchema.maximumProblems)
        #expect(problems.first?.path == "key0")
        let list = Self.schema.validate(ContextSnapshot(["roles": .array(Array(repeating: 1, count: 100_000))]))
        #expect(list.count == ContextSchema.maximumProblems)
        #expect(list.last?.path == "roles[100]")
    }

    /// "Did you mean" compares each undeclared key with every declared one: a snapshot of
    /// many undeclared keys against a large schema gets suggestions until 1,000
    /// comparisons are spent, then none.
    @Test func spendsABoundedEffortOnSuggestions() {
        let large = ContextSchema((0..<1_000).map { ContextSchema.Field("key\($0)", .int) })
        var values: [String: RuleValue] = [:]
        for index in 0..<200 { values["kye\(index)"] = 1 }
        let problems = large.validate(ContextSnapshot(values))
        #expect(problems.count == 100)
        #expect(problems.compactMap(\.suggestion) == ["key0"])
        // Against a small schema the budget lasts: every one of 100 slips gets its suggestion.
        let small: ContextSchema = ["a": .int, "b": .int]
        let letters = "abcdefghijklmnopqrstuvwxyz0123456789"
        let slips = Set(["a", "b"].flatMap { key in letters.flatMap { ["\(key)\($0)", "\($0)\(key)"] } })
        let nearA = small.validate(ContextSnapshot(Dictionary(uniqueKeysWithValues: slips.map { ($0, 1) })))
        #expect(nearA.count == 100 && nearA.allSatisfy { $0.suggestion != nil })
    }

    /// Nesting deeper than the schema costs nothing: undeclared keys, `any` and values of
    /// the wrong type are not looked into.
    @Test func looksOnlyAsDeepAsTheSchemaDeclares() {
        var deep: RuleValue = 1
        for _ in 0..<1_000 { deep = ["a": deep] }
        let problems = Self.schema.validate(
            ContextSnapshot(["user": ["a": deep], "extra": deep, "hour": deep, "undeclared": deep, "roles": [deep]]))
        #expect(
            problems.map(\.description) == [
                "hour: expected int, found table", "roles[1]: expected string, found table",
                "undeclared: not declared in the context schema", "user.a: not declared in the context schema",
            ])
    }
}
