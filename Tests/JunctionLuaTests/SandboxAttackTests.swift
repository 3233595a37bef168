import JunctionCore
import JunctionLua
import Testing

/// Each attack runs as a rule, must end in a clean, specific error, and must leave the
/// engine working: the next evaluation is correct and nothing leaked into other rules.
@Suite struct SandboxAttackTests {
    struct Attack: CustomTestStringConvertible, Sendable {
        let name: String
        let body: String
        let code: LuaError.Code
        let message: String
        var limits = SandboxLimits(instructions: 200_000, decisionTime: SandboxAttackTests.noClock)

        var testDescription: String { name }
    }

    /// Memory attacks get a small heap and a large instruction budget, so memory runs out first.
    static let memoryLimits = SandboxLimits(memoryBytes: 1 << 20, instructions: 50_000_000, decisionTime: noClock)

    /// The time backstop out of the way: these attacks are about the counted budgets,
    /// which end them the same on every machine, and a debug build (with the thread
    /// sanitizer, too) does the host's share of the work many times slower than a release
    /// build. ``stopsWorkTheCountCannotSeeAtTheTimeLimit()`` is about the clock.
    static let noClock = Duration.seconds(120)

    /// The default budgets, the clock aside (see ``noClock``).
    static let defaultBudgets = SandboxLimits(decisionTime: noClock)

    /// A bundle with the attack as `attack` and a witness that checks nothing changed.
    static func engine(_ attack: Attack) throws -> RuleEngine {
        try RuleEngine(
            sources: [
                RuleSource(
                    name: "attack.lua",
                    text: """
                        function attack(req, ctx)
                        \(attack.body)
                        end
                        function witness(req, ctx)
                          return string.upper("ok") .. math.floor(2.5) .. table.concat({ "a", "b" }) .. ("x"):rep(2)
                            .. tostring(getmetatable("")) .. type(req) .. tostring(req.n) .. tostring(counter)
                        end
                        """)
            ], limits: attack.limits)
    }

    /// `t` with keys 2^40, 2^39, …, 1 in its hash part (inserted from the largest, so no
    /// rehash moves the small ones into an array part): 41 entries whose border is 2^40.
    static let forgedBorder = "local t = {} for i = 40, 0, -1 do t[1 << i] = true end assert(#t == 1 << 40)\n"

    /// `s`, a string of 1 MiB built by doubling (VM concatenation, which charges nothing).
    static let megabyte = "local s = 'x' for _ = 1, 20 do s = s .. s end\n"

    static let attacks: [Attack] = [
        // Reaching the system.
        Attack(
            name: "os.execute", body: "return os.execute('id')", code: .runtime,
            message: "attempt to index a nil value (global 'os')"),
        Attack(
            name: "io.open", body: "return io.open('/etc/passwd')", code: .runtime,
            message: "attempt to index a nil value (global 'io')"),
        Attack(
            name: "require", body: "return require('os')", code: .runtime,
            message: "attempt to call a nil value (global 'require')"),
        Attack(
            name: "package.loadlib (CVE-2022-0543)",
            body: "return package.loadlib('/lib/x86_64-linux-gnu/liblua5.4.so.0', 'luaopen_os')", code: .runtime,
            message: "attempt to index a nil value (global 'package')"),
        Attack(
            name: "debug", body: "return debug.getinfo(1)", code: .runtime,
            message: "attempt to index a nil value (global 'debug')"),
        Attack(
            name: "dofile", body: "return dofile('/etc/passwd')", code: .runtime,
            message: "attempt to call a nil value (global 'dofile')"),
        Attack(
            name: "loadfile", body: "return loadfile('/etc/passwd')", code: .runtime,
            message: "attempt to call a nil value (global 'loadfile')"),
        Attack(
            name: "load with an environment", body: "return load('return 1', 'x', 't', { os = 1 })", code: .runtime,
            message: "load: a loaded chunk always runs in the rule's own environment"),
        Attack(
            name: "load in binary mode", body: "return load('return 1', 'x', 'b')", code: .runtime,
            message: "load: rules may load only text chunks (mode \"t\")"),
        Attack(
            name: "load of a binary chunk",
            body: "local f, err = load('\\27LuaT\\0\\25\\147\\13\\10\\26\\10'); error(err)", code: .runtime,
            message: "attempt to load a binary chunk (mode is 't')"),
        Attack(
            name: "load of a reader function", body: "return load(function() return nil end)", code: .runtime,
            message: "load: rules may load only source text given as a string"),
        Attack(
            name: "string.dump", body: "return string.dump(witness)", code: .runtime,
            message: "attempt to call a nil value (field 'dump')"),
        Attack(
            name: "coroutines", body: "return coroutine.create(print)", code: .runtime,
            message: "attempt to index a nil value (global 'coroutine')"),
        Attack(
            name: "collectgarbage", body: "collectgarbage('stop')", code: .runtime,
            message: "attempt to call a nil value (global 'collectgarbage')"),
        Attack(
            name: "math.random", body: "return math.random()", code: .runtime,
            message: "attempt to call a nil value (field 'random')"),

        // Running forever.
        Attack(
            name: "while true", body: "while true do end", code: .instructionBudget,
            message: "instruction budget of 200000 exceeded"),
        Attack(
            name: "inside pcall", body: "while true do pcall(function() while true do end end) end",
            code: .instructionBudget, message: "instruction budget"),
        Attack(
            name: "inside nested pcall", body: "pcall(pcall, pcall, function() while true do end end)",
            code: .instructionBudget, message: "instruction budget"),
        Attack(
            name: "pcall catching in a loop", body: "while true do pcall(error, 'x') end", code: .instructionBudget,
            message: "instruction budget"),
        Attack(
            name: "xpcall with a looping handler",
            body: "xpcall(function() while true do end end, function() while true do end end)",
            code: .instructionBudget, message: "instruction budget"),
        Attack(
            name: "xpcall handler that catches",
            body: "while true do xpcall(function() while true do end end, function(e) return e end) end",
            code: .instructionBudget, message: "instruction budget"),
        Attack(
            name: "<close> handler",
            body: "local x <close> = setmetatable({}, { __close = function() while true do end end })\nerror('leave')",
            code: .instructionBudget, message: "instruction budget"),
        Attack(
            name: "sort comparator", body: "table.sort({ 3, 2, 1 }, function(a, b) while true do end end)",
            code: .instructionBudget, message: "instruction budget"),
        Attack(
            name: "gsub callback", body: "string.gsub('aaa', 'a', function() while true do end end)",
            code: .instructionBudget, message: "instruction budget"),
        Attack(
            name: "__index loop",
            body: "local t = setmetatable({}, { __index = function() while true do end end }); return t.x",
            code: .instructionBudget, message: "instruction budget"),
        Attack(
            name: "__len lie to table.insert",
            body: "local t = setmetatable({}, { __len = function() return 1 << 40 end }); table.insert(t, 1, 'x')",
            code: .instructionBudget, message: "instruction budget"),
        Attack(
            name: "__len lie to table.concat",
            body:
                "local t = setmetatable({}, { __len = function() return 1 << 40 end, __index = function() return '' end }); return table.concat(t)",
            code: .instructionBudget, message: "instruction budget"),
        Attack(
            name: "tail-call loop", body: "local function f() return f() end return f()", code: .instructionBudget,
            message: "instruction budget"),
        Attack(
            name: "load-ed loop", body: "load('while true do end')()", code: .instructionBudget,
            message: "instruction budget"),

        // C functions that cannot be interrupted.
        Attack(
            name: "catastrophic backtracking", body: "return string.find(string.rep('a', 5000), '.-.-.-.-b')",
            code: .instructionBudget, message: "instruction budget of 200000 exceeded"),
        Attack(
            name: "backtracking through a method call", body: "return (string.rep('a', 3000)):match('a*a*a*b')",
            code: .instructionBudget, message: "instruction budget"),
        Attack(
            name: "backtracking in gsub", body: "return string.gsub(string.rep('ab', 3000), '.-.-x', '')",
            code: .instructionBudget, message: "instruction budget"),
        Attack(
            name: "backtracking in gmatch", body: "for m in string.gmatch(string.rep('a', 4000), 'a-a-b') do end",
            code: .instructionBudget, message: "instruction budget"),
        // Pattern work is charged to the budget step by step (LuaPatternMatcher); these end
        // under the default limits, which they would take minutes to hours past in Lua's matcher.
        Attack(
            name: "optional items (a?)^30 a^30",
            body: "return string.find(('a'):rep(30), ('a?'):rep(30) .. ('a'):rep(30))", code: .instructionBudget,
            message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),
        Attack(
            name: "optional sets ([ab]?)^28 [ab]^28",
            body: "return string.match(('ab'):rep(14), ('[ab]?'):rep(28) .. ('[ab]'):rep(28))",
            code: .instructionBudget, message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "optional classes in gsub",
            body: "return string.gsub(('ab'):rep(14), '^' .. ('%a?'):rep(28) .. ('%a'):rep(28), '')",
            code: .instructionBudget, message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "optional sets in gmatch",
            body: "for m in string.gmatch(('ba'):rep(14), ('[^c]?'):rep(28) .. ('[^c]'):rep(28)) do end",
            code: .instructionBudget, message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "lazy items .-.-.-.-b", body: "return string.match(('a'):rep(2000), '.-.-.-.-b')",
            code: .instructionBudget, message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "1.5 MB literal needle in 3 MB",
            body: "return string.find(('a'):rep(3000000), ('a'):rep(1500000) .. 'b')", code: .instructionBudget,
            message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "1.5 MB plain needle in 3 MB",
            body: "return string.find(('a'):rep(3000000), ('a'):rep(1500000) .. 'b', 1, true)",
            code: .instructionBudget, message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "many short plain comparisons",
            body: "return string.find(('a'):rep(3000000), ('a'):rep(20) .. 'b', 1, true)", code: .instructionBudget,
            message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "%b() on an unbalanced subject", body: "return string.find(('('):rep(100000), '%b()')",
            code: .instructionBudget, message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "back-references", body: "return string.match(('a'):rep(100000), '(a*)%1%1%1b')",
            code: .instructionBudget, message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "long back-references retried",
            body: "return string.find(('a'):rep(20000), '(' .. ('a'):rep(5000) .. ')%1-b')", code: .instructionBudget,
            message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "frontiers and sets",
            body: "return string.find(('a'):rep(100000), '%f[%a][' .. ('b'):rep(2000) .. 'a]*c')",
            code: .instructionBudget, message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "gmatch over a huge subject",
            body: "local n = 0 for w in string.gmatch(('a '):rep(1000000), '%a+') do n = n + 1 end return n",
            code: .instructionBudget, message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "gmatch of empty matches",
            body: "local n = 0 for w in ('x'):rep(3000000):gmatch('') do n = n + 1 end return n",
            code: .instructionBudget, message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "gsub with a string on a big subject", body: "return string.gsub(('x'):rep(2000000), 'x', '%0%0')",
            code: .instructionBudget, message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "gsub with a table on a big subject",
            body: "return string.gsub(('x'):rep(2000000), 'x', { x = 'y' })", code: .instructionBudget,
            message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "gsub with a function on a big subject",
            body: "return string.gsub(('x'):rep(2000000), 'x', function(c) return c end)", code: .instructionBudget,
            message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "gsub of a big replacement", body: "return string.gsub(('x'):rep(1000), 'x', ('y'):rep(100000))",
            code: .instructionBudget, message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "pattern work caught by pcall",
            body: "while true do pcall(string.find, ('a'):rep(100), '.-.-.-b') end", code: .instructionBudget,
            message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "pattern errors caught by pcall",
            body: "local s = ('a'):rep(2000) .. 'b' while true do pcall(string.find, s, 'a-a-a-b%') end",
            code: .instructionBudget, message: "instruction budget", limits: defaultBudgets),
        Attack(
            name: "string.rep 2^40", body: "return string.rep('x', 2^40)", code: .instructionBudget,
            message: "instruction budget"),
        Attack(
            name: "table.move of 2^40 nils", body: "return table.move({}, 1, 1 << 40, 2)", code: .instructionBudget,
            message: "instruction budget"),

        // Work done in C, charged by its size under the default budget: each ends before
        // the call starts, or within a few calls, instead of holding the engine for minutes.
        Attack(
            name: "string.rep of empty pieces, the count a numeric string", body: "return string.rep('', '4e18')",
            code: .instructionBudget, message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),
        Attack(
            name: "string.rep, the count a numeric string", body: "return string.rep('x', '4e18')",
            code: .instructionBudget, message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),
        Attack(
            name: "table.move, the bounds numeric strings", body: "return table.move({}, '1', '4e18', 1, {})",
            code: .instructionBudget, message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),
        Attack(
            name: "table.insert below a forged border", body: forgedBorder + "table.insert(t, 1, 'x')",
            code: .instructionBudget, message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),
        Attack(
            name: "table.remove below a forged border", body: forgedBorder + "return table.remove(t, 1)",
            code: .instructionBudget, message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),
        Attack(
            name: "upper on 1 MB in a loop", body: megabyte + "while true do s:upper() end", code: .instructionBudget,
            message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),
        Attack(
            name: "url.encode on 400 KB in a loop", body: "local s = ('a'):rep(409600) while true do url.encode(s) end",
            code: .instructionBudget, message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),
        Attack(
            name: "url.parse on 400 KB, caught, in a loop",
            body: "local s = 'x:' .. ('%'):rep(409600) while true do pcall(url.parse, s) end", code: .instructionBudget,
            message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),
        Attack(
            name: "print of 1 MB in a loop", body: megabyte + "while true do print(s) end", code: .instructionBudget,
            message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),
        Attack(
            name: "table.unpack of a huge range", body: "return table.unpack({}, 1, 1e8)", code: .instructionBudget,
            message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),
        Attack(
            name: "string.byte of a whole big string in a loop",
            body: "local s = 'x' for _ = 1, 17 do s = s .. s end while true do local _ = string.byte(s, 1, -1) end",
            code: .instructionBudget, message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),
        Attack(
            name: "tonumber of a huge numeral in a loop",
            body: "local s = '1' for _ = 1, 19 do s = s .. s end while true do tonumber(s) end",
            code: .instructionBudget, message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),
        Attack(
            name: "utf8.codes's iterator over continuation bytes, caught",
            body:
                "local s = '\\x80' for _ = 1, 20 do s = s .. s end local step = utf8.codes('') while true do pcall(step, s, 0) end",
            code: .instructionBudget, message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),
        Attack(
            name: "load of a 1 MB chunk in a loop", body: megabyte + "s = '--' .. s while true do load(s) end",
            code: .instructionBudget, message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),
        Attack(
            name: "table.concat past the memory limit, caught",
            body:
                "local s = 'x' for _ = 1, 16 do s = s .. s end local t = {} for i = 1, 200 do t[i] = s end while true do pcall(table.concat, t) end",
            code: .instructionBudget, message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),
        Attack(
            name: "string.pack of a huge fixed size, caught",
            body: "while true do pcall(string.pack, 'c2000000000', '') end", code: .instructionBudget,
            message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),
        Attack(
            name: "select through a long argument list in a loop",
            body: "local t = {} for i = 1, 5000 do t[i] = i end while true do select(2, table.unpack(t)) end",
            code: .instructionBudget, message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),
        Attack(
            name: "rawequal of two long equal strings in a loop",
            body:
                "local a = 'x' for _ = 1, 19 do a = a .. a end local b = 'x' .. a:sub(2) while true do rawequal(a, b) end",
            code: .instructionBudget, message: "instruction budget of 1000000 exceeded", limits: defaultBudgets),

        // Memory.
        Attack(
            name: "table growth", body: "local t = {} for i = 1, 1e8 do t[i] = i end", code: .memory,
            message: "memory budget exceeded", limits: memoryLimits),
        Attack(
            name: "string growth", body: "local s = 'x' while true do s = s .. s end", code: .memory,
            message: "memory budget exceeded", limits: memoryLimits),
        Attack(
            name: "unbounded recursion", body: "local function f(n) return 1 + f(n + 1) end return f(1)", code: .memory,
            message: "memory budget exceeded", limits: memoryLimits),

        // Tampering with what other rules use.
        Attack(
            name: "assign string.upper", body: "string.upper = function() return 'pwned' end", code: .runtime,
            message: "attempt to modify a read-only table"),
        Attack(
            name: "rawset string.upper", body: "rawset(string, 'upper', function() return 'pwned' end)", code: .runtime,
            message: "rawset: the table is read-only"),
        Attack(
            name: "assign math.floor", body: "math.floor = nil", code: .runtime,
            message: "attempt to modify a read-only table"),
        Attack(
            name: "string metatable", body: "getmetatable('').__index = {}", code: .runtime,
            message: "attempt to index a boolean value"),
        Attack(
            name: "setmetatable on a library", body: "setmetatable(string, {})", code: .runtime,
            message: "cannot change a protected metatable"),
        Attack(
            name: "assign a global", body: "counter = 1", code: .runtime, message: "attempt to modify a read-only table"
        ),
        Attack(
            name: "assign through _G", body: "_G.counter = 1", code: .runtime,
            message: "attempt to modify a read-only table"),
        Attack(
            name: "rawset on _G", body: "rawset(_G, 'counter', 1)", code: .runtime,
            message: "rawset: the table is read-only"),
        Attack(
            name: "change the request", body: "req.n = 2", code: .runtime,
            message: "attempt to modify a read-only table"),
        Attack(
            name: "table.insert into a library", body: "table.insert(string, 'x')", code: .runtime,
            message: "attempt to modify a read-only table"),
        Attack(
            name: "__gc finalizer", body: "setmetatable({}, { __gc = function() while true do end end })",
            code: .runtime, message: "setmetatable: __gc finalizers are not allowed in rules"),

        // Results the host must survive.
        Attack(name: "a cycle", body: "local t = {} t.self = t return t", code: .conversion, message: "cycle"),
        Attack(
            name: "deep nesting", body: "local t = {} for i = 1, 100 do t = { t } end return t", code: .conversion,
            message: "deep"),
        Attack(
            name: "a huge result", body: "local t = {} for i = 1, 20000 do t[i] = i end return t", code: .conversion,
            message: "values", limits: memoryLimits),
        Attack(name: "a function result", body: "return print", code: .conversion, message: "function"),
        Attack(
            name: "a table error object", body: "error({})", code: .runtime, message: "(error object is a table value)"),
        Attack(
            name: "a looping __tostring error object",
            body: "error(setmetatable({}, { __tostring = function() while true do end end }))", code: .runtime,
            message: "(error object is a table value)"),

        // Reading what differs by device or history (SandboxIsolationTests goes further).
        Attack(
            name: "a code outside 100-999", body: "return reject('x', math.mininteger)", code: .runtime,
            message: "reject: code must be a whole number from 100 to 999"),
        Attack(
            name: "an address through string.format", body: "return string.format('%p', {})", code: .runtime,
            message: "string.format: '%p' shows an address"),
        Attack(
            name: "a weak table", body: "return setmetatable({}, { __mode = 'k' })", code: .runtime,
            message: "weak tables (__mode) are not allowed in rules"),
        Attack(
            name: "a weak table made later", body: "local mt = {} local t = setmetatable({}, mt) mt.__mode = 'v'",
            code: .runtime, message: "weak tables (__mode) are not allowed in rules"),
        Attack(
            name: "measuring the heap by allocating until it fails",
            body:
                "local n = 0 while pcall(function() n = n + 1 local t = {} for i = 1, 1e9 do t[i] = ('x'):rep(64) .. i end end) do end return n",
            code: .memory, message: "memory budget exceeded", limits: memoryLimits),
        Attack(
            name: "the sandbox's position in a caught error",
            body:
                "local ok, e = pcall(table.insert, setmetatable({}, {}), 1, 2, 3) if not ok and e:find('junction/sandbox') then return e end error(e)",
            code: .runtime, message: "attack.lua:2: wrong number of arguments to 'insert'"),
    ]

    @Test(arguments: attacks)
    func endsCleanlyAndLeavesTheEngineIntact(_ attack: Attack) throws {
        let engine = try Self.engine(attack)
        let request: RuleValue = ["n": 1]
        let error = #expect(throws: LuaError.self) { try engine.evaluate("attack", arguments: [request, [:]]) }
        #expect(error?.code == attack.code, "\(error?.description ?? "no error")")
        #expect(error?.description.contains(attack.message) == true, "\(error?.description ?? "no error")")
        // The next evaluation is correct and sees nothing the attack tried to change.
        let witness = try engine.evaluate("witness", arguments: [request, [:]])
        #expect(witness.value == "OK2abxxfalsetable1nil")
        // And the attack fails the same way again: nothing it did stuck.
        let again = #expect(throws: LuaError.self) { try engine.evaluate("attack", arguments: [request, [:]]) }
        #expect(again?.code == attack.code)
    }

    /// Bundle loading runs under the same budget: C work at a file's top level stops
    /// loading with the budget error (it used to hang it).
    @Test(arguments: ["string.rep('', '4e18')", "table.move({}, '1', '4e18', 1, {})"])
    func stopsLoadingABundleWhoseTopLevelWorksInCPastTheBudget(_ statement: String) {
        let error = #expect(throws: LuaError.self) {
            try RuleEngine(sources: [RuleSource(name: "top.lua", text: "function f() end\nlocal x = \(statement)\n")])
        }
        #expect(error?.code == .instructionBudget, "\(error?.description ?? "no error")")
        #expect(error?.chunkName == "top.lua")
        #expect(error?.line == 2)
    }

    @Test func ordinaryPatternsOnURLsStayAllowed() throws {
        let engine = try RuleEngine(sources: [
            RuleSource(
                name: "ok.lua",
                text: """
                    function id(req)
                      local id, tab = req.path:match("^/user/(%d+)/(%w+)$")
                      local squeezed = string.gsub(req.title, "%s+", " ")
                      return id .. ":" .. tab .. ":" .. squeezed .. ":" .. select(2, string.gsub(req.path, "/", "/"))
                    end
                    """)
        ])
        let path = "/user/" + String(repeating: "1", count: 200) + "/posts"
        let title = String(repeating: "a  b ", count: 400)
        let result = try engine.evaluate("id", arguments: [["path": .string(path), "title": .string(title)]])
        let squeezed = String(repeating: "a b ", count: 400)
        #expect(result.value == .string(String(repeating: "1", count: 200) + ":posts:" + squeezed + ":3"))
    }

    @Test func findsNothingThatReachesTheSystem() throws {
        // Walks everything a rule can reach from the libraries and the string metatable,
        // and probes the globals by name.
        let engine = try RuleEngine(sources: [
            RuleSource(
                name: "walk.lua",
                text: """
                    function walk()
                      local seen, names = {}, {}
                      local function visit(t, path)
                        if type(t) ~= "table" or seen[t] then return end
                        seen[t] = true
                        for k, v in pairs(t) do
                          local name = path .. "." .. tostring(k)
                          names[#names + 1] = name
                          visit(v, name)
                        end
                      end
                      visit({ string = string, table = table, math = math, utf8 = utf8, G = _G, meta = getmetatable("") }, "")
                      for _, name in ipairs({ "os", "io", "package", "debug", "require", "dofile", "loadfile", "coroutine",
                                              "warn", "module", "loadstring", "setfenv", "getfenv", "newproxy", "gcinfo" }) do
                        if _G[name] ~= nil then names[#names + 1] = "global " .. name end
                      end
                      table.sort(names)
                      return table.concat(names, " ")
                    end
                    """)
        ])
        let reachable = try engine.evaluate("walk").value
        guard case .string(let names) = reachable else {
            Issue.record("not a string: \(reachable)")
            return
        }
        let list = names.split(separator: " ")
        for forbidden in [
            "os", "io", "package", "debug", "require", "dofile", "loadfile", "loadlib", "dump", "coroutine", "random",
            "randomseed", "warn",
        ] {
            #expect(!list.contains { $0.hasSuffix("." + forbidden) || $0 == "global" }, "\(forbidden) is reachable")
        }
        #expect(!names.contains("global "), "\(names)")
        #expect(list.contains("string.upper") == false && list.contains(".string.upper"))
    }

    /// Two long equal strings compared again and again: every comparison is one
    /// instruction to the count, and a memcmp of 200 KB to the machine. The time backstop
    /// (``SandboxLimits/decisionTime``, 50 ms by default) ends it, as a decision.
    @Test func stopsWorkTheCountCannotSeeAtTheTimeLimit() throws {
        let engine = try RuleEngine(sources: [
            RuleSource(name: "a.lua", text: "A = ('x'):rep(200000)"),
            RuleSource(
                name: "b.lua",
                text: """
                    B = ('x'):rep(199999) .. 'x'
                    function compare()
                      local n = 0
                      while true do if A == B then n = n + 1 end end
                    end
                    function fine() return #A end
                    """),
        ])
        let error = #expect(throws: LuaError.self) { try engine.evaluate("compare") }
        #expect(error?.code == .timeLimit, "\(error?.description ?? "no error")")
        #expect(error?.code.endsDecision == true)
        #expect(error?.description.contains("SandboxLimits.decisionTime") == true)
        #expect(try engine.evaluate("fine").value == 200_000)
    }
}
