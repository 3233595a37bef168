import JunctionCore
import JunctionLua
import Logging
import Testing

/// Library and helper functions are charged to the instruction budget for the work they
/// do outside the VM — a byte read or produced, an element moved or pushed, one unit each —
/// so a call's cost follows its size, while ordinary calls on URL-sized strings stay cheap.
@Suite struct WorkChargeTests {
    struct Call: CustomTestStringConvertible, Sendable {
        /// An expression, evaluated in a rule with `big` (50,000 ASCII bytes) and `u` (a URL).
        let expression: String
        /// Statements before it, whose cost the baseline subtracts.
        var setup = ""
        /// The fewest units the call must be charged.
        var atLeast = 0
        /// The most it may be charged, VM instructions of the call included.
        var atMost = Int.max

        var testDescription: String { expression }
    }

    static let big = String(repeating: "abcdefghij", count: 5_000)
    static let link = "myapp://user/42/posts?tab=likes&from=push#top"
    /// `t`, the integers 1...10,000.
    static let tenThousand = "local t = {} for i = 1, 10000 do t[i] = i end"

    /// What `call` is charged beyond its setup: the instructions of a rule that runs both
    /// less those of one that runs the setup alone, counted exactly (an interval of 1).
    static func charged(_ call: Call) throws -> Int {
        let engine = try RuleEngine(
            sources: [
                RuleSource(
                    name: "probe.lua",
                    text: """
                        function probe(big, u)
                          \(call.setup)
                          local _ = \(call.expression)
                        end
                        function baseline(big, u)
                          \(call.setup)
                          local _ = nil
                        end
                        """)
            ],
            limits: SandboxLimits(instructions: 100_000_000, instructionInterval: 1, decisionTime: .seconds(120)))
        let arguments: [RuleValue] = [.string(big), .string(link)]
        let probe = try engine.evaluate("probe", arguments: arguments).instructions
        return probe - (try engine.evaluate("baseline", arguments: arguments).instructions)
    }

    @Test(arguments: [
        // string
        Call(expression: "('x'):rep(100000)", atLeast: 100_000),
        Call(expression: "string.rep('', 100000)", atLeast: 100_000),
        Call(expression: "string.rep('ab', 50000, ',')", atLeast: 150_000),
        Call(expression: "big:upper()", atLeast: 50_000),
        Call(expression: "big:lower()", atLeast: 50_000),
        Call(expression: "big:reverse()", atLeast: 50_000),
        Call(expression: "big:sub(2)", atLeast: 49_999),
        Call(expression: "big:byte(1, -1)", atLeast: 50_000),
        Call(expression: "string.char(big:byte(1, 5000))", atLeast: 10_000),
        Call(expression: "string.format('%s', big)", atLeast: 100_000),
        Call(expression: "string.pack('z', big)", atLeast: 50_000),
        Call(expression: "string.unpack('c50000', big)", atLeast: 50_000),
        Call(expression: "string.packsize(f)", setup: "local f = ('i'):rep(50000)", atLeast: 50_000),
        // table
        Call(expression: "table.concat({ big, big }, ',')", atLeast: 100_001),
        Call(expression: "table.concat(t)", setup: tenThousand, atLeast: 10_000 + 38_894),  // elements + digits
        Call(expression: "table.insert(t, 1, 0)", setup: tenThousand, atLeast: 10_000),
        Call(expression: "table.remove(t, 1)", setup: tenThousand, atLeast: 9_999),
        Call(expression: "table.move(t, 1, 10000, 2)", setup: tenThousand, atLeast: 10_000),
        Call(expression: "table.sort(t)", setup: tenThousand, atLeast: 140_000),
        Call(expression: "table.unpack(t)", setup: tenThousand, atLeast: 10_000),
        Call(expression: "table.pack(table.unpack(t))", setup: tenThousand, atLeast: 20_000),
        // utf8
        Call(expression: "utf8.char(big:byte(1, 5000))", atLeast: 10_000),
        Call(expression: "utf8.len(big)", atLeast: 50_000),
        Call(expression: "utf8.codepoint(big, 1, -1)", atLeast: 50_000),
        Call(expression: "utf8.offset(big, 50000)", atLeast: 49_999),
        Call(expression: "utf8.offset(big, -50000)", atLeast: 49_999),
        Call(
            expression: "(function() for _ in utf8.codes(c) do end end)()", setup: "local c = ('\\u{E9}'):rep(25000)",
            atLeast: 50_000),
        // base
        Call(expression: "tonumber(n)", setup: "local n = ('1'):rep(50000)", atLeast: 50_000),
        Call(expression: "tonumber(n, 16)", setup: "local n = ('f'):rep(50000)", atLeast: 50_000),
        Call(expression: "select(2, table.unpack(t))", setup: tenThousand, atLeast: 19_998),
        Call(expression: "load(chunk)", setup: "local chunk = 'return \"' .. big .. '\"'", atLeast: 50_000),
        Call(expression: "rawequal(big, copy)", setup: "local copy = big:upper():lower()", atLeast: 50_000),
        // the rule API's helpers: what they read, then what they produce
        Call(expression: "url.encode(big)", atLeast: 100_000),
        Call(expression: "url.decode(big)", atLeast: 100_000),
        Call(expression: "url.parse(p)", setup: "local p = 'https://h/' .. big", atLeast: 150_000),
        Call(expression: "url.build{ host = 'h', path = '/' .. big }", atLeast: 100_000),
        // a version is at most 256 bytes: a longer one is an error, charged for the bytes it passed
        Call(expression: "pcall(version.compare, v, v)", setup: "local v = '1.2.3-' .. big", atLeast: 100_000),
        Call(expression: "rollout(big, 'user-1', 50)", atLeast: 50_000),
    ])
    func chargesEachFunctionByItsWork(_ call: Call) throws {
        let units = try Self.charged(call)
        #expect(units >= call.atLeast, "charged \(units)")
    }

    @Test(arguments: [
        Call(expression: "u:upper()", atLeast: 45, atMost: 200),
        Call(expression: "u:sub(9, 12)", atLeast: 4, atMost: 80),
        Call(expression: "u:byte(1)", atMost: 10),
        Call(expression: "string.format('%s:%d', u, 7)", atMost: 300),
        Call(expression: "string.rep('-', 8)", atLeast: 8, atMost: 100),
        // The bounds include what the call allocates (the result, a table built for it),
        // charged a byte an instruction. These three pass through the prelude's check for
        // a metatable, some 15 instructions of Lua.
        Call(expression: "table.concat({ 'a', 'b', 'c' }, '/')", atLeast: 8, atMost: 300),
        Call(expression: "table.insert(t, 0)", setup: "local t = { 1, 2, 3 }", atMost: 100),
        Call(expression: "table.remove(t)", setup: "local t = { 1, 2, 3 }", atMost: 30),
        Call(expression: "table.unpack(t)", setup: "local t = { 1, 2, 3 }", atMost: 10),
        Call(expression: "select('#', 1, 2, 3)", atMost: 10),
        Call(expression: "select(2, 'a', 'b', 'c')", atMost: 10),
        Call(expression: "tonumber('42')", atMost: 10),
        Call(expression: "utf8.len(u)", atMost: 60),
        Call(expression: "string.len(big)", atMost: 5),
        Call(expression: "url.encode(u)", atLeast: 90, atMost: 400),
        Call(expression: "url.parse(u)", atMost: 2_500),
        Call(expression: "url.build{ scheme = 'myapp', host = 'user', path = '/42' }", atMost: 500),
        Call(expression: "version.compare('5.2.0', '5.10.1')", atMost: 25),
        Call(expression: "rollout('checkout', 'user-1', 50)", atMost: 25),
        Call(expression: "#big", atMost: 5),
    ])
    func keepsOrdinaryCallsCheap(_ call: Call) throws {
        let units = try Self.charged(call)
        #expect(units >= call.atLeast && units <= call.atMost, "charged \(units)")
    }

    /// The arguments are read as the C original reads them, so a bad one gets the
    /// original's own message, and the rule's line.
    @Test(arguments: [
        ("string.rep('x', 'many')", "bad argument #2 to 'rep' (number expected, got string)"),
        ("string.rep('x', 2.5)", "bad argument #2 to 'rep' (number has no integer representation)"),
        ("('x'):sub({})", "bad argument #1 to 'sub' (number expected, got table)"),
        ("table.insert({}, 'x', 1)", "bad argument #2 to 'insert' (number expected, got string)"),
        ("table.insert({}, 5, 1)", "bad argument #2 to 'insert' (position out of bounds)"),
        ("table.insert({}, 1, 2, 3)", "wrong number of arguments to 'insert'"),
        ("table.concat({}, {})", "bad argument #2 to 'concat' (string expected, got table)"),
        ("table.concat({ 1, {} })", "invalid value (table) at index 2 in table for 'concat'"),
        ("table.move({}, 1, 'x', 1)", "bad argument #3 to 'move' (number expected, got string)"),
        ("utf8.len('abc', 10)", "bad argument #2 to 'len' (initial position out of bounds)"),
        ("select(0, 1)", "bad argument #1 to 'select' (index out of range)"),
        ("tonumber('10', 99)", "bad argument #2 to 'tonumber' (base out of range)"),
    ])
    func keepsTheOriginalsArgumentErrors(_ expression: String, _ message: String) throws {
        let engine = try RuleEngine(sources: [
            RuleSource(name: "bad.lua", text: "function f()\n  local r = \(expression)\n  return r\nend")
        ])
        let error = #expect(throws: LuaError.self) { try engine.evaluate("f") }
        #expect(error?.description == "bad.lua:2: \(message)")
    }

    /// Numeric strings convert as Lua converts them, and the results are the originals'.
    @Test func answersAsTheOriginalsDo() throws {
        let engine = try RuleEngine(sources: [
            RuleSource(
                name: "same.lua",
                text: """
                    function f()
                      local t = { 'a', 'b', 'c' }
                      table.insert(t, '2', 'x')
                      local removed = table.remove(t, '1')
                      local parts = { string.rep('ab', '3', '-'), ('hello'):sub('2', '-2'), table.concat(t, ','), removed,
                                      select('2', 'p', 'q', 'r'), string.rep('', 1e5), tostring(select('#', table.unpack(t))),
                                      table.concat(table.move({ 1, 2, 3 }, '1', '3', 2), ''), utf8.char(72, 105),
                                      tostring(utf8.offset('héllo', 3)), tostring(tonumber('ff', 16)) }
                      for p, c in utf8.codes('hé') do parts[#parts + 1] = p .. ':' .. c end
                      return table.concat(parts, ' ')
                    end
                    """)
        ])
        #expect(try engine.evaluate("f").value == "ab-ab-ab ell x,b,c a q  3 1123 Hi 4 255 1:104 2:233")
    }

    /// `print` and `log.*` are charged for the bytes they join, those a `__tostring`
    /// returns included.
    @Test(arguments: [
        "print(s)", "log.info('a', s)", "log.warn(s, 1)",
        "print(setmetatable({}, { __tostring = function() return s end }))",
    ])
    func chargesPrintAndLogForTheBytesTheyJoin(_ statement: String) throws {
        let engine = try RuleEngine(
            sources: [
                RuleSource(
                    name: "log.lua",
                    text: "function f()\n  local s = 'x' for _ = 1, 17 do s = s .. s end\n  \(statement)\nend")
            ],
            limits: SandboxLimits(instructions: 100_000, decisionTime: .seconds(120)),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let error = #expect(throws: LuaError.self) { try engine.evaluate("f") }
        #expect(error?.code == .instructionBudget)
    }

    /// With the budget off (for measuring only) the charges never trip.
    @Test func neverTripsWithTheBudgetOff() throws {
        let engine = try RuleEngine(
            sources: [
                RuleSource(
                    name: "off.lua", text: "function f() return #string.rep('', '4e18') + #('x'):rep(2000000) end")
            ],
            limits: SandboxLimits(instructions: .max, decisionTime: .seconds(120)))
        #expect(try engine.evaluate("f").value == 2_000_000)
    }
}
