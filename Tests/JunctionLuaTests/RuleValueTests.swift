import Testing

import JunctionCore
@testable import JunctionLua

@Suite struct RuleValueTests {
    // MARK: - Round trips

    static let roundTripValues: [RuleValue] = [
        .nil, true, false,
        0, 3, -7, .int(.min), .int(.max),
        3.0, 0.5, -2.25, .double(.infinity), .double(-.infinity), .double(.greatestFiniteMagnitude),
        .double(.leastNonzeroMagnitude), .double(9_007_199_254_740_992), .double(0.1),
        "", "héllo", "a\u{0}b", "\u{0}", "😀", "e\u{301}",
        .bytes([0xFF, 0xFE]), .bytes([0x6F, 0x6B, 0xC3]), .bytes([0x00, 0x80]),
        [1], [1, 2.0, "three", false], [[1], [2, [3]], [[:]]], .array((1...1000).map { .int($0) }),
        [:], ["a": 1, "b": 2.0], ["nested": ["list": [["x": "y"], [:]], "flag": true]],
        ["": "empty key", "two words": "spaced", "a\u{0}b": "nul key", "é": .bytes([0xFF])],
    ]

    @Test(arguments: roundTripValues, [false, true])
    func roundTripsEveryKindOfValue(value: RuleValue, readOnly: Bool) throws {
        let lua = try BridgeTestState()
        let height = lua.stackHeight
        try lua.push(value, readOnly: readOnly)
        #expect(lua.stackHeight == height + 1)
        #expect(try lua.pop() == value)
    }

    @Test(arguments: [false, true])
    func roundTripsNaNAndTheSignOfZero(readOnly: Bool) throws {
        let lua = try BridgeTestState()
        try lua.push([.double(.nan), .double(-0.0)], readOnly: readOnly)
        let elements = try lua.pop()
        #expect(elements[index: 0]?.doubleValue?.isNaN == true)
        #expect(elements[index: 1]?.doubleValue?.sign == .minus)
    }

    @Test func returnsAnEmptyArrayAsAnEmptyTable() throws {
        let lua = try BridgeTestState()
        try lua.push(.array([]))
        #expect(try lua.pop() == .table([:]))
    }

    @Test func returnsEmptyBytesAsTheEmptyString() throws {
        let lua = try BridgeTestState()
        try lua.push(.bytes([]))
        #expect(try lua.pop() == "")
    }

    // MARK: - What Lua sees

    @Test(
        arguments: [
            (3, "math.type(v)", "integer"),
            (3.0, "math.type(v)", "float"),
            (.int(.min), "v == math.mininteger", true),
            (.double(.nan), "v ~= v", true),
            (.double(.infinity), "v == math.huge", true),
            (.double(-.infinity), "v == -math.huge", true),
            ("a\u{0}b", "#v", 3),
            (.bytes([0xFF, 0xFE]), #"v == "\xff\xfe""#, true),
            ([10, 20, 30], "#v * 100 + v[3]", 330),
            ([10, 20, 30], "math.type(next(v))", "integer"),
            (["key": "value"], "v.key", "value"),
            ([:], "next(v) == nil", true),
            (.nil, "v == nil", true),
        ] as [(RuleValue, String, RuleValue)])
    func pushesValuesAsLuaSeesThem(value: RuleValue, expression: String, expected: RuleValue) throws {
        let lua = try BridgeTestState()
        try lua.set("v", to: value)
        #expect(try lua.evaluate("return \(expression)") == expected)
    }

    @Test(
        arguments: [
            ("return 3", 3),
            ("return 3.0", 3.0),
            ("return 2^53", 9_007_199_254_740_992.0),
            ("return 7 // 2, 7 / 2", 3),
            ("return math.mininteger", .int(.min)),
            ("return 1/0", .double(.infinity)),
            ("return -1/0", .double(-.infinity)),
            ("return 'a\\0b'", "a\u{0}b"),
            (#"return "\xff\xfe""#, .bytes([0xFF, 0xFE])),
            ("return {}", [:]),
            ("return {1, 2, 3}", [1, 2, 3]),
            ("return {[3] = 'c', [1] = 'a', [2] = 'b'}", ["a", "b", "c"]),
            ("local t = {} for i = 100, 1, -1 do t[i] = i end return t", .array((1...100).map { .int($0) })),
            ("return {a = {b = {1, {c = true}}}}", ["a": ["b": [1, ["c": true]]]]),
            ("local shared = {1} return {shared, shared}", [[1], [1]]),
            ("return {['1'] = 'string key'}", ["1": "string key"]),
            ("return {[1.0] = 'normalised to 1'}", ["normalised to 1"]),
            ("return nil", .nil),
        ] as [(String, RuleValue)])
    func readsValuesFromLua(source: String, expected: RuleValue) throws {
        let lua = try BridgeTestState()
        #expect(try lua.evaluate(source) == expected)
    }

    @Test func readsNaNFromLua() throws {
        let lua = try BridgeTestState()
        #expect(try lua.evaluate("return 0/0").doubleValue?.isNaN == true)
    }

    // MARK: - Refusals

    static let onlyPlainValues = "only nil, booleans, numbers, strings and tables can leave Lua"
    static let onlyArrayOrStringKeys = "only string keys and integer keys 1...n can leave Lua"

    @Test(
        arguments: [
            (
                "return {1, 2, x = 3}", "result.x",
                "the table mixes integer and string keys; use an array (keys 1...n) or string keys only"
            ),
            ("return {items = {{}, {}, {x = print}}}", "result.items[3].x", "it is a function; \(onlyPlainValues)"),
            (#"return {["two words"] = print}"#, #"result["two words"]"#, "it is a function; \(onlyPlainValues)"),
            ("return coroutine.create(print)", "result", "it is a thread; \(onlyPlainValues)"),
            ("return {u = {newuserdata()}}", "result.u[1]", "it is a userdata; \(onlyPlainValues)"),
            ("return {[1.5] = true}", "result[1.5]", "the key is a float; \(onlyArrayOrStringKeys)"),
            ("return {list = {[true] = 1}}", "result.list[true]", "the key is a boolean; \(onlyArrayOrStringKeys)"),
            ("return {[{}] = 1}", "result[<table>]", "the key is a table; \(onlyArrayOrStringKeys)"),
            (
                "return {[0] = 'zero'}", "result[0]",
                "an array's keys must be 1...n, and 0 is below 1; use string keys or start at 1"
            ),
            (
                "return {1, 2, [5] = 5}", "result[5]",
                "an array's keys must be 1...n without holes, and this table has 3 entries, so its keys must be 1...3;"
                    + " fill the hole or use string keys"
            ),
            (
                #"return {["ok\xff"] = 1}"#, #"result["ok\xff"]"#,
                "the key is not valid UTF-8; table keys must be text"
            ),
            (
                "local t = {a = {}} t.a.back = t return t", "result.a.back",
                "it is a table that contains it (a cycle); return tables without cycles"
            ),
            (
                "local t = {} t[1] = t return t", "result[1]",
                "it is a table that contains it (a cycle); return tables without cycles"
            ),
            (
                // Whichever of the two keys comes second is named; both render as "é".
                #"return {["\u{E9}"] = 1, ["e\u{301}"] = 2}"#, #"result["é"]"#,
                "another key of the table is the same text in a different Unicode normalization;"
                    + " use keys that differ as text"
            ),
        ])
    func refusesValuesNamingTheirPath(source: String, path: String, problem: String) throws {
        let lua = try BridgeTestState()
        let error = #expect(throws: LuaError.self) { try lua.evaluate(source) }
        #expect(error?.code == .conversion)
        #expect(error?.line == nil)
        #expect(error?.description == "test: cannot read \(path) from Lua: \(problem)")
    }

    @Test func readsTablesRawWithoutCallingTheirMetamethods() throws {
        let lua = try BridgeTestState()
        let source = """
            local raise = function() error("a metamethod ran") end
            local spin = function() while true do end end
            return {
              plain = setmetatable({ a = 1 }, { __index = raise, __pairs = spin, __len = spin, __newindex = raise }),
              inherited = setmetatable({}, { __index = { hidden = 1 } }),
              list = setmetatable({ 1, 2 }, { __index = raise, __len = raise, __pairs = raise }),
            }
            """
        #expect(try lua.evaluate(source) == ["plain": ["a": 1], "inherited": [:], "list": [1, 2]])
    }

    @Test func leavesTheStackAsItWasAfterARefusal() throws {
        let lua = try BridgeTestState()
        let height = lua.stackHeight
        _ = try? lua.evaluate("return {a = {b = {c = print}}}")
        #expect(lua.stackHeight == height)
        #expect(throws: LuaError.self) { try lua.push([1, .nil]) }
        #expect(lua.stackHeight == height)
    }

    // MARK: - Limits

    @Test(
        arguments: [
            (RuleValueLimits(maximumDepth: 3), "return {{{1}}}", nil),
            (
                RuleValueLimits(maximumDepth: 3), "return {{{{1}}}}",
                "result[1][1][1] from Lua: tables nest deeper than 3 levels;"
                    + " return flatter tables or raise RuleValueLimits.maximumDepth"
            ),
            (RuleValueLimits(maximumDepth: 0), "return 'scalar'", nil),
            (
                RuleValueLimits(maximumDepth: 0), "return {}",
                "result from Lua: tables nest deeper than 0 levels;"
                    + " return flatter tables or raise RuleValueLimits.maximumDepth"
            ),
            (RuleValueLimits(maximumValueCount: 4), "return {1, 2, 3}", nil),
            (
                RuleValueLimits(maximumValueCount: 4), "return {1, 2, 3, 4}",
                "result from Lua: there are more than 4 values in all;"
                    + " return less data or raise RuleValueLimits.maximumValueCount"
            ),
            (RuleValueLimits(maximumStringBytes: 5), "return {ab = 'cde'}", nil),
            (
                RuleValueLimits(maximumStringBytes: 5), "return {ab = 'cdef'}",
                "result.ab from Lua: its strings hold more than 5 bytes in all;"
                    + " return less text or raise RuleValueLimits.maximumStringBytes"
            ),
            (
                RuleValueLimits(maximumStringBytes: 5), "return {abcdef = 1}",
                "result.abcdef from Lua: its strings hold more than 5 bytes in all;"
                    + " return less text or raise RuleValueLimits.maximumStringBytes"
            ),
        ] as [(RuleValueLimits, String, String?)])
    func limitsWhatLuaReturns(limits: RuleValueLimits, source: String, message: String?) throws {
        let lua = try BridgeTestState()
        if let message {
            let error = #expect(throws: LuaError.self) { try lua.evaluate(source, limits: limits) }
            #expect(error?.code == .conversion)
            #expect(error?.description == "test: cannot read \(message)")
        } else {
            _ = try lua.evaluate(source, limits: limits)
        }
    }

    @Test(
        arguments: [
            (RuleValueLimits(maximumDepth: 3), [[[1]]], nil),
            (
                RuleValueLimits(maximumDepth: 3), [[[[1]]]],
                "argument[1][1][1] to Lua: tables nest deeper than 3 levels;"
                    + " pass flatter tables or raise RuleValueLimits.maximumDepth"
            ),
            (RuleValueLimits(maximumValueCount: 4), [1, 2, 3], nil),
            (
                RuleValueLimits(maximumValueCount: 4), ["list": [1, 2, 3]],
                "argument.list to Lua: there are more than 4 values in all;"
                    + " pass less data or raise RuleValueLimits.maximumValueCount"
            ),
            (RuleValueLimits(maximumStringBytes: 5), ["ab": "cde"], nil),
            (
                RuleValueLimits(maximumStringBytes: 5), ["ab": .bytes([1, 2, 3, 4])],
                "argument.ab to Lua: its strings hold more than 5 bytes in all;"
                    + " pass less text or raise RuleValueLimits.maximumStringBytes"
            ),
            (
                .default, [1, .nil, 3],
                "argument[2] to Lua: a Lua table cannot hold nil;"
                    + " leave the key out, or use a placeholder such as false in an array"
            ),
            (
                .default, ["headers": ["x-gone": .nil]],
                #"argument.headers["x-gone"] to Lua: a Lua table cannot hold nil;"#
                    + " leave the key out, or use a placeholder such as false in an array"
            ),
        ] as [(RuleValueLimits, RuleValue, String?)])
    func limitsWhatTheHostPasses(limits: RuleValueLimits, value: RuleValue, message: String?) throws {
        let lua = try BridgeTestState()
        let height = lua.stackHeight
        if let message {
            let error = #expect(throws: LuaError.self) { try lua.push(value, limits: limits) }
            #expect(error?.code == .conversion)
            #expect(error?.description == "test: cannot pass \(message)")
            #expect(lua.stackHeight == height)
        } else {
            try lua.push(value, limits: limits)
            #expect(try lua.pop(limits: limits) == value)
        }
    }

    @Test(arguments: [(32, true), (33, false)])
    func allowsThirtyTwoLevelsByDefault(depth: Int, converts: Bool) throws {
        let lua = try BridgeTestState()
        let source = "local t = {} for i = 2, \(depth) do t = {t} end return t"
        #expect(((try? lua.evaluate(source)) != nil) == converts)
        let nested = (1..<depth).reduce(RuleValue.array([])) { inner, _ in [inner] }
        #expect(((try? lua.push(nested)) != nil) == converts)
    }

    @Test func stopsATableSharedExponentiallyAtTheValueLimit() throws {
        let lua = try BridgeTestState()
        // 2^31 values once copied out; the count limit ends the read after 10,000.
        let error = #expect(throws: LuaError.self) {
            try lua.evaluate("local t = {1} for i = 1, 30 do t = {t, t} end return t")
        }
        #expect(
            error?.message.hasSuffix(
                "there are more than 10000 values in all;"
                    + " return less data or raise RuleValueLimits.maximumValueCount") == true)
    }

    @Test(arguments: [false, true])
    func reportsRunningOutOfMemoryWhilePushingAndStaysUsable(readOnly: Bool) throws {
        let lua = try BridgeTestState(memoryLimit: 256 * 1024)
        let height = lua.stackHeight
        let big = RuleValue.array((0..<20_000).map { .string("element number \($0)") })
        let limits = RuleValueLimits(maximumValueCount: 100_000, maximumStringBytes: 10 << 20)
        let error = #expect(throws: LuaError.self) { try lua.push(big, readOnly: readOnly, limits: limits) }
        #expect(error?.code == .memory)
        #expect(
            error?.description
                == "test: not enough memory to pass argument to Lua within the state's memory limit;"
                + " use a smaller value or raise the memory limit")
        #expect(lua.stackHeight == height)
        #expect(try lua.evaluate("local t = {} for i = 1, 100 do t[i] = i end return #t") == 100)
        try lua.push(["small": [1, 2]], readOnly: readOnly)
        #expect(try lua.pop() == ["small": [1, 2]])
    }

    // MARK: - The Swift side

    @Test func buildsValuesFromLiteralsWithIntegersAndFloatsApart() {
        let value: RuleValue = ["n": 1, "x": 1.0, "s": "text", "b": true, "list": [1, "two"], "empty": [:]]
        #expect(value[key: "n"] == .int(1))
        #expect(value[key: "x"] == .double(1))
        #expect(value[key: "n"] != value[key: "x"])
        #expect(value[key: "s"]?.stringValue == "text")
        #expect(value[key: "b"]?.boolValue == true)
        #expect(value[key: "list"]?[index: 1] == "two")
        #expect(value[key: "list"]?[index: 2] == nil)
        #expect(value[key: "empty"] == .table([:]))
        #expect(value[key: "missing"] == nil)
        #expect(value[key: "n"]?.intValue == 1)
        #expect(value[key: "n"]?.doubleValue == nil)
    }
}
