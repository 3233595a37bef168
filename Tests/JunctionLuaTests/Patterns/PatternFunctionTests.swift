import JunctionCore
import JunctionLua
import Testing

/// `string.find/match/gmatch/gsub` as rules see them (the sandbox's own matcher): results
/// and errors as Lua 5.4 gives them, every step charged to the instruction budget.
@Suite struct PatternFunctionTests {
    /// Each function's results joined with spaces (`tostring` of each); `gmatch` joins its
    /// matches with commas; `gsub_table` and `gsub_function` replace with a table and a function.
    static func engine() throws -> RuleEngine {
        try RuleEngine(sources: [
            RuleSource(
                name: "patterns.lua",
                text: """
                    local function joined(...)
                      local out = {}
                      for i = 1, select("#", ...) do out[i] = tostring((select(i, ...))) end
                      return table.concat(out, " ")
                    end
                    function find(s, p, init, plain) return joined(string.find(s, p, init, plain)) end
                    function match(s, p, init) return joined(string.match(s, p, init)) end
                    function gmatch(s, p, init)
                      local out, it = {}, string.gmatch(s, p, init)
                      while true do
                        local found = table.pack(it())
                        if found[1] == nil then break end
                        out[#out + 1] = joined(table.unpack(found, 1, found.n))
                      end
                      return table.concat(out, ",")
                    end
                    function gsub(s, p, r, n) return joined(string.gsub(s, p, r, n)) end
                    function gsub_table(s, p) return joined(string.gsub(s, p, { o = "0", a = {} })) end
                    function gsub_function(s, p)
                      return joined(string.gsub(s, p, function(k)
                        if k == "bad" then return {} end
                        return ({ name = "Ann", age = 42, b = "B" })[k]
                      end))
                    end
                    """)
        ])
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let function: String
        let arguments: [RuleValue]
        let expected: String

        init(_ function: String, _ arguments: RuleValue..., gives expected: String) {
            self.function = function
            self.arguments = arguments
            self.expected = expected
        }

        var testDescription: String { "\(function)(\(arguments.map { "\($0)" }.joined(separator: ", ")))" }
    }

    static let cases: [Case] = [
        // find: positions, captures, init from either end, the plain fast path.
        Case("find", "hello world", "o w", gives: "5 7"),
        Case("find", "hello world", "o", 6, gives: "8 8"),
        Case("find", "hello world", "l+", gives: "3 4"),
        Case("find", "hello", "l", -2, gives: "4 4"),
        Case("find", "hello", "h", -10, gives: "1 1"),
        Case("find", "hello", "", 10, gives: "nil"),
        Case("find", "hello", "", 6, gives: "6 5"),
        Case("find", "hello", "l", "2", gives: "3 3"),
        Case("find", 12345, 34, gives: "3 4"),
        Case("find", "a.b", ".", 1, true, gives: "2 2"),
        Case("find", "a+b", "+", 1, true, gives: "2 2"),
        Case("find", "key=value", "(%w+)=(%w+)", gives: "1 9 key value"),
        Case("find", "abc", "()b()", gives: "2 2 2 3"),
        Case("find", "hello", "^h", gives: "1 1"),
        Case("find", "hello", "^e", gives: "nil"),
        Case("find", "THE (quick) fox", "%((%a+)%)", gives: "5 11 quick"),
        Case("find", "x = [[a]]", "%b[]", gives: "5 9"),
        Case("find", "THE quick", "%f[%a]%a+", 4, gives: "5 9"),
        // match: the captures, or the whole match.
        Case("match", "2024-01-15", "(%d+)-(%d+)-(%d+)", gives: "2024 01 15"),
        Case("match", "  trim  ", "^%s*(.-)%s*$", gives: "trim"),
        Case("match", "hello", ".-l", gives: "hel"),
        Case("match", "hello", "l*", gives: ""),
        Case("match", "abcabc", "(abc)%1", gives: "abc"),
        Case("match", "a,b,,c", "[^,]*", 5, gives: ""),
        Case("match", "café", "%a+", gives: "caf"),
        Case("match", "[x]", "[]x[]+", gives: "[x]"),
        Case("match", "a-b", "[a%-]+", gives: "a-"),
        Case("match", "f(a(b)c)", "%b()", gives: "(a(b)c)"),
        Case("match", "hello", "(h)(e)(l)(l)(o)", gives: "h e l l o"),
        Case("match", "hello", "%u", gives: "nil"),
        Case("match", .bytes([0x61, 0, 0x62]), "%z", gives: "\0"),
        Case("match", "x1y2", "%D+", 2, gives: "y"),
        // gmatch: empty matches move on (Lua 5.4's lastmatch); `^` is an ordinary byte; init.
        Case("gmatch", "one two  three", "%a+", gives: "one,two,three"),
        Case("gmatch", "k1=v1&k2=v2", "(%w+)=(%w+)", gives: "k1 v1,k2 v2"),
        Case("gmatch", "abc", "", gives: ",,,"),
        Case("gmatch", "abc", "a*", gives: "a,,"),
        Case("gmatch", "hello world from Lua", "%a+", 7, gives: "world,from,Lua"),
        Case("gmatch", "^a^a", "^a", gives: "^a,^a"),
        Case("gmatch", "abc", "()", 2, gives: "2,3,4"),
        // gsub: %0–%9 and %%, at most n, anchored, with tables and functions.
        Case("gsub", "hello world", "o", "0", gives: "hell0 w0rld 2"),
        Case("gsub", "hello world", "(%w+)", "<%1>", gives: "<hello> <world> 2"),
        Case("gsub", "hello world", "%w+", "%0 %0", 1, gives: "hello hello world 1"),
        Case("gsub", "abc", "", "-", gives: "-a-b-c- 4"),
        Case("gsub", "hello", "l", "%%", gives: "he%%o 2"),
        Case("gsub", "abc", "%w", "%1", gives: "abc 3"),
        Case("gsub", "abc", "^a", "x", gives: "xbc 1"),
        Case("gsub", "aaa", "^a", "x", gives: "xaa 1"),
        Case("gsub", "abc", "b*", "-", gives: "-a-c- 3"),
        Case("gsub", "abc", "%w", "x", "1", gives: "xbc 1"),
        Case("gsub", "a1", "%d", 7, gives: "a7 1"),
        Case("gsub", "abc", "()b", "%1", gives: "a2c 1"),
        Case("gsub_table", "hello world", "(o)", gives: "hell0 w0rld 2"),
        Case("gsub_function", "$name is $age", "%$(%w+)", gives: "Ann is 42 2"),
        Case("gsub_function", "abc", "%w", gives: "aBc 3"),
    ]

    @Test(arguments: cases)
    func givesLuasResults(_ testCase: Case) throws {
        let result = try Self.engine().evaluate(testCase.function, arguments: testCase.arguments)
        #expect(result.value == .string(testCase.expected))
    }

    static let errors: [Case] = [
        Case("find", "x", "%", gives: "malformed pattern (ends with '%')"),
        Case("find", "x", "[a", gives: "malformed pattern (missing ']')"),
        Case("find", "x", "%f", gives: "missing '[' after '%f' in pattern"),
        Case("find", "x", "%fa", gives: "missing '[' after '%f' in pattern"),
        Case("find", "x", "%b", gives: "malformed pattern (missing arguments to '%b')"),
        Case("find", "x", "(x)%2", gives: "invalid capture index %2"),
        Case("find", "x", "%0", gives: "invalid capture index %0"),
        Case("match", "x", "x)", gives: "invalid pattern capture"),
        Case("match", "x", "(x", gives: "unfinished capture"),
        Case("find", "x", .string(String(repeating: "()", count: 33)), gives: "too many captures"),
        Case(
            "match", .string(String(repeating: "a", count: 300)), .string(String(repeating: "a?", count: 300)),
            gives: "pattern too complex"),
        Case("gsub", "abc", "%w", "%2", gives: "invalid capture index %2"),
        Case("gsub", "abc", "%w", "%x", gives: "invalid use of '%' in replacement string"),
        Case("gsub", "abc", "%w", "x%", gives: "invalid use of '%' in replacement string"),
        Case("gsub", "abc", "(%w", "%1", gives: "unfinished capture"),
        Case(
            "gsub", "abc", "%w", true, gives: "bad argument #3 to 'gsub' (string/function/table expected, got boolean)"),
        Case("gsub_table", "abc", "%w", gives: "invalid replacement value (a table)"),
        Case("gsub_function", "a bad b", "%a+", gives: "invalid replacement value (a table)"),
        Case("find", .nil, "x", gives: "bad argument #1 to 'find' (string expected, got nil)"),
        Case("find", "x", "x", 1.5, gives: "bad argument #3 to 'find' (number has no integer representation)"),
        Case("match", "x", .table([:]), gives: "bad argument #2 to 'match' (string expected, got table)"),
        Case("gmatch", "x", "%", gives: "malformed pattern (ends with '%')"),
    ]

    @Test(arguments: errors)
    func raisesLuasErrors(_ testCase: Case) {
        let error = #expect(throws: LuaError.self) {
            try Self.engine().evaluate(testCase.function, arguments: testCase.arguments)
        }
        #expect(error?.code == .runtime)
        #expect(error?.message == testCase.expected, "\(error?.description ?? "no error")")
    }

    @Test func chargesEveryStepToTheBudget() throws {
        let engine = try RuleEngine(sources: [
            RuleSource(
                name: "work.lua",
                text: """
                    function plain(s) return (string.find(s, "b", 1, true)) end
                    function backtrack(s) return (string.find(s, "a*b")) end
                    function failing(s) return (pcall(string.find, s, "a-a-a-b%")) end
                    """)
        ])
        // 20,000 bytes scanned for "b": at least one step each.
        let subject = RuleValue.string(String(repeating: "a", count: 20_000) + "b")
        #expect(try engine.evaluate("plain", arguments: [subject]).instructions >= 20_000)
        // a*b on a's alone: each start position backtracks its whole run, n²/2 tests and more.
        let run = RuleValue.string(String(repeating: "a", count: 400))
        #expect(try engine.evaluate("backtrack", arguments: [run]).instructions >= 400 * 400 / 2)
        // The work done before a pattern error is charged too, though pcall catches the error.
        let failed = try engine.evaluate("failing", arguments: [.string(String(repeating: "a", count: 400) + "b")])
        #expect(failed.value == false)
        #expect(failed.instructions >= 400)
    }

    @Test func stopsWhereTheBudgetEnds() throws {
        let limits = SandboxLimits(instructions: 100_000, decisionTime: .seconds(120))
        let engine = try RuleEngine(
            sources: [
                RuleSource(
                    name: "work.lua",
                    text: """
                        function scan(n) return (string.find(string.rep("a", n), "a*b")) end
                        """)
            ], limits: limits)
        // a*b tries every start position and backtracks each run: about 3n²/2 steps.
        #expect(try engine.evaluate("scan", arguments: [200]).value == .nil)
        let error = #expect(throws: LuaError.self) { try engine.evaluate("scan", arguments: [1_000]) }
        #expect(error?.code == .instructionBudget)
        // The engine goes on working.
        #expect(try engine.evaluate("scan", arguments: [10]).value == .nil)
    }

    /// Regression: the prelude's estimate kept the shape of every pattern it saw in a
    /// cache, so a pattern made from one request's data stayed in the state for later
    /// evaluations (and grew the heap). The matcher keeps nothing.
    @Test func keepsNothingOfThePatternsItMatched() throws {
        let engine = try RuleEngine(sources: [
            RuleSource(
                name: "tokens.lua",
                text: """
                    function probe(token) return (string.find("user=" .. token, token .. "+")) end
                    """)
        ])
        _ = try engine.evaluate("probe", arguments: ["warm-up"])
        engine.collectGarbage()
        let before = engine.memoryInUse
        for index in 0..<200 {
            #expect(try engine.evaluate("probe", arguments: [.string("token\(index)")]).value == 6)
        }
        engine.collectGarbage()
        #expect(engine.memoryInUse <= before + 1_024)
    }

    @Test func iteratesWithGmatchInsideARule() throws {
        let engine = try RuleEngine(sources: [
            RuleSource(
                name: "rules/iterate.lua",
                text: """
                    function words(req)
                      local out = {}
                      for word in string.gmatch(req.path, "[^/]+") do out[#out + 1] = word end
                      return table.concat(out, " ")
                    end
                    """)
        ])
        // Each evaluation has its own iterator: nothing carries over.
        for _ in 0..<2 {
            #expect(try engine.evaluate("words", arguments: [["path": "/user/42/posts"]]).value == "user 42 posts")
        }
    }
}
