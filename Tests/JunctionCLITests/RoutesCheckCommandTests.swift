import Testing

@Suite struct RoutesCheckCommandTests {
    @Test func acceptsAValidTable() throws {
        let table = try CLIRunner.fixture("routes.yaml")
        let result = try CLIRunner.run(["routes", "check", table])
        #expect(result.status == 0)
        #expect(result.stdout == "\(table): ok, 5 routes\n")
    }

    @Test func listsEveryErrorAsFileLineColumnAndExitsOne() throws {
        let table = try CLIRunner.fixture("broken.yaml")
        let result = try CLIRunner.run(["routes", "check", table])
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                \(table):4:5: error: duplicate route name "a" (first declared at \(table):2:5); rename one
                \(table):5:14: error: pattern "/a/:other" is the same as route "a"'s "/a/:id" at \(table):3:14; only one of them could ever match — remove one or make them differ
                \(table):6:5: error: unknown key "colour" in a route; expected one of name, pattern, target, priority, groups, exported, description, params, returns, meta, launch, params_strict
                \(table): 3 errors

                """)
    }

    @Test func namesAMissingFile() throws {
        let result = try CLIRunner.run(["routes", "check", "/nonexistent.yaml"])
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("route table: error: cannot read /nonexistent.yaml"))
    }
}
