import JunctionLua
import Testing

@Suite struct LuaSandboxValueTests {
    @Test(
        arguments: [
            ("return 1, 1.0, 2^53", [1, 1.0, 9_007_199_254_740_992.0]),
            ("return math.maxinteger, math.mininteger", [.integer(.max), .integer(.min)]),
            ("return 7 // 2, 7 / 2, 3 | 0", [3, 3.5, 3]),
            ("return true, false", [true, false]),
            ("return nil, 1, nil", [.nil, 1, .nil]),
            ("return", []),
            ("local x = 1", []),
        ] as [(String, [LuaValue])])
    func returnsScalarsWithIntegersAndFloatsApart(source: String, expected: [LuaValue]) throws {
        let sandbox = try LuaSandbox()
        #expect(try sandbox.evaluate(source: source, chunkName: "scalars.lua") == expected)
    }

    @Test(
        arguments: [
            (#"return "héllo""#, "héllo"),
            (#"return "a\0b""#, .string("a\u{0}b")),
            (#"return utf8.char(0x1F600)"#, "😀"),
            (#"return "\xff\xfe""#, .bytes([0xFF, 0xFE])),
            (#"return "ok\xc3""#, .bytes([0x6F, 0x6B, 0xC3])),
            (#"return """#, ""),
        ] as [(String, LuaValue)])
    func returnsUTF8AsStringsAndOtherBytesAsBytes(source: String, expected: LuaValue) throws {
        let sandbox = try LuaSandbox()
        #expect(try sandbox.evaluate(source: source, chunkName: "strings.lua") == [expected])
    }

    @Test func returnsArraysAsTablesKeyedFromOne() throws {
        let sandbox = try LuaSandbox()
        #expect(
            try sandbox.evaluate(source: "return {10, 20, 30}, {}", chunkName: "array.lua") == [[10, 20, 30], [:]])
    }

    @Test func returnsNestedTables() throws {
        let sandbox = try LuaSandbox()
        let values = try sandbox.evaluate(
            source: #"return { route = "home", tags = {"a", "b"}, limits = { depth = { max = 2.5 } }, [true] = 1 }"#,
            chunkName: "nested.lua")
        #expect(values == [["route": "home", "tags": ["a", "b"], "limits": ["depth": ["max": 2.5]], true: 1]])
    }

    @Test func returnsATableSharedTwiceAsTwoCopies() throws {
        let sandbox = try LuaSandbox()
        let values = try sandbox.evaluate(source: "local s = {1} return {a = s, b = s}", chunkName: "shared.lua")
        #expect(values == [["a": [1], "b": [1]]])
    }

    @Test func readsTablesRawIgnoringARaisingIndexMetamethod() throws {
        let sandbox = try LuaSandbox()
        let source = """
            local raise = function() error("metamethod ran") end
            return setmetatable({ a = 1 }, { __index = raise, __pairs = raise, __len = raise, __eq = raise })
            """
        #expect(try sandbox.evaluate(source: source, chunkName: "raw.lua") == [["a": 1]])
    }

    @Test(arguments: [
        (32, true),
        (33, false),
    ])
    func readsTablesNestedUpToTheDepthLimit(depth: Int, converts: Bool) throws {
        let sandbox = try LuaSandbox()
        let source = "local t = {} for i = 2, \(depth) do t = {t} end return t"
        if converts {
            _ = try sandbox.evaluate(source: source, chunkName: "deep.lua")
        } else {
            let error = #expect(throws: LuaError.self) {
                try sandbox.evaluate(source: source, chunkName: "deep.lua")
            }
            #expect(error?.code == .conversion)
            #expect(
                error?.description
                    == "deep.lua: cannot convert return value #1: tables nest deeper than 32 levels; return flatter tables"
            )
        }
    }

    @Test func refusesACycleNamingWhereItCloses() throws {
        let sandbox = try LuaSandbox()
        let error = #expect(throws: LuaError.self) {
            try sandbox.evaluate(
                source: "local t = {child = {}} t.child.parent = t return 1, t", chunkName: "cycle.lua")
        }
        #expect(error?.code == .conversion)
        #expect(error?.line == nil)
        #expect(
            error?.description
                == "cycle.lua: cannot convert return value #2: .child.parent refers back to a table that contains it"
                + " (a cycle); return tables without cycles")
    }

    @Test(arguments: [
        ("return print", "the value is a function"),
        (#"return { handlers = { ["on open"] = print } }"#, #".handlers["on open"] is a function"#),
        ("return { [print] = true }", "a key in the value is a function"),
    ])
    func refusesValuesWithoutALuaValue(source: String, problem: String) throws {
        let sandbox = try LuaSandbox()
        let error = #expect(throws: LuaError.self) {
            try sandbox.evaluate(source: source, chunkName: "function.lua")
        }
        #expect(error?.code == .conversion)
        #expect(
            error?.description == "function.lua: cannot convert return value #1: \(problem);"
                + " only nil, booleans, numbers, strings and tables convert")
    }

    @Test func keepsGlobalsBetweenEvaluations() throws {
        let sandbox = try LuaSandbox()
        _ = try sandbox.evaluate(source: "counter = 41", chunkName: "first.lua")
        #expect(try sandbox.evaluate(source: "counter = counter + 1 return counter", chunkName: "second.lua") == [42])
    }
}
