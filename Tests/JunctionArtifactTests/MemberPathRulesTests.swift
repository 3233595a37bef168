import Testing

@testable import JunctionArtifact

@Suite struct MemberPathRulesTests {
    @Test(arguments: [
        ("login.lua", ArtifactMemberKind.lua, nil),
        ("a.b-c_9.lua", .lua, nil),
        ("manifest.json", .manifest, nil),
        ("routes.json", .routes, nil),
        ("tests.json", .tests, nil),
        (".lua", .lua, "is not name.lua at the top level (letters, digits, _, - and .), the path of a lua member"),
        (
            ".hidden.lua", .lua,
            "is not name.lua at the top level (letters, digits, _, - and .), the path of a lua member"
        ),
        ("a.LUA", .lua, "is not name.lua at the top level (letters, digits, _, - and .), the path of a lua member"),
        ("ä.lua", .lua, "is not name.lua at the top level (letters, digits, _, - and .), the path of a lua member"),
        ("a b.lua", .lua, "is not name.lua at the top level (letters, digits, _, - and .), the path of a lua member"),
        ("..", .lua, "has a .. segment"),
        ("a/../b.lua", .lua, "has a .. segment"),
        ("a/./b.lua", .lua, "has a . segment"),
        ("a/", .lua, "has an empty segment"),
        ("/a.lua", .lua, "is absolute"),
        ("a\u{7F}.lua", .lua, "has a control character"),
        ("a\u{1B}.lua", .lua, "has a control character"),
        ("a\\b.lua", .lua, "has a backslash"),
        ("Manifest.json", .manifest, "is not manifest.json, the one path of a manifest member"),
        ("tests.json", .routes, "is not routes.json, the one path of a routes member"),
        (String(repeating: "a", count: 125) + ".lua", .lua, "has 129 bytes; at most 128 are allowed"),
        (String(repeating: "a", count: 124) + ".lua", .lua, nil),
    ])
    func appliesThePathRules(path: String, kind: ArtifactMemberKind, problem: String?) {
        #expect(MemberPathRules.problem(with: path, kind: kind, limits: .default) == problem)
    }
}
