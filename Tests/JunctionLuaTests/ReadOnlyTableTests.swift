import Testing

import JunctionCore
@testable import JunctionLua

@Suite struct ReadOnlyTableTests {
    static let request: RuleValue = [
        "name": "home",
        "list": [10, 20, 30],
        "nested": ["deep": ["value": 1]],
    ]

    /// A state with ``request`` pushed read-only as the global `t`.
    static func stateWithRequest() throws -> BridgeTestState {
        let lua = try BridgeTestState()
        try lua.set("t", to: request, readOnly: true)
        return lua
    }

    // MARK: - Reading

    @Test(
        arguments: [
            ("t.name", "home"),
            ("t.list[2]", 20),
            ("t.list[4]", .nil),
            ("t.nested.deep.value", 1),
            ("#t.list", 3),
            ("table.concat(t.list, ',')", "10,20,30"),
            ("select('#', table.unpack(t.list))", 3),
            ("(function() local s = 0 for i, v in ipairs(t.list) do s = s + i * v end return s end)()", 140),
            ("(function() local n = 0 for k, v in pairs(t) do n = n + 1 end return n end)()", 3),
            ("(function() local s = 0 for k, v in pairs(t.list) do s = s + k * v end return s end)()", 140),
            ("getmetatable(t)", false),
            ("getmetatable(t.nested.deep)", false),
            ("is_readonly(t) and is_readonly(t.list) and is_readonly(t.nested.deep)", true),
            ("is_readonly({})", false),
            // The raw functions see the empty proxy (documented on `ReadOnlyTables`).
            ("rawget(t, 'name')", .nil),
            ("rawlen(t.list)", 0),
            ("next(t)", .nil),
        ] as [(String, RuleValue)])
    func readsLikeAnOrdinaryTable(expression: String, expected: RuleValue) throws {
        let lua = try Self.stateWithRequest()
        #expect(try lua.evaluate("return \(expression)") == expected)
    }

    @Test func pairsNeverYieldsTheBackingTable() throws {
        let lua = try Self.stateWithRequest()
        let source = """
            local iterate, state, control = pairs(t)
            assert(rawequal(state, t) and control == nil, "pairs exposes its state")
            for _, value in pairs(t) do
              if type(value) == "table" and getmetatable(value) ~= false then return false end
            end
            -- The iterator walks its own upvalue, whatever state it is handed.
            local key = iterate({}, nil)
            return key ~= nil and t[key] ~= nil
            """
        #expect(try lua.evaluate(source) == true)
    }

    @Test func returnsReadOnlyTablesToTheHostThroughTheirBacking() throws {
        let lua = try Self.stateWithRequest()
        #expect(try lua.evaluate("return t") == Self.request)
        #expect(
            try lua.evaluate("return {picked = t.nested, first = t.list[1]}") == [
                "picked": ["deep": ["value": 1]], "first": 10,
            ])
    }

    // MARK: - Writing

    @Test(
        arguments: [
            ("t.name = 'away'", "test:1: attempt to modify a read-only table (field 'name')"),
            ("t.added = 1", "test:1: attempt to modify a read-only table (field 'added')"),
            ("t.list[4] = 40", "test:1: attempt to modify a read-only table (index 4)"),
            ("t.list[1] = 0", "test:1: attempt to modify a read-only table (index 1)"),
            ("t.nested.deep.value = 2", "test:1: attempt to modify a read-only table (field 'value')"),
            ("t[true] = 1", "test:1: attempt to modify a read-only table (a boolean key)"),
            ("table.insert(t.list, 40)", "test:1: attempt to modify a read-only table (index 4)"),
            ("table.insert(t.list, 1, 0)", "test:1: attempt to modify a read-only table (index 4)"),
            ("table.remove(t.list)", "test:1: attempt to modify a read-only table (index 3)"),
            ("table.sort(t.list, function(a, b) return a > b end)", "test:1: attempt to modify a read-only table"),
            ("setmetatable(t, {})", "test:1: cannot change a protected metatable"),
            ("setmetatable(t.nested, nil)", "test:1: cannot change a protected metatable"),
        ])
    func refusesEveryWrite(statement: String, message: String) throws {
        let lua = try Self.stateWithRequest()
        let failure = try #require(lua.failure(of: statement))
        #expect(failure.hasPrefix(message))
        #expect(try lua.evaluate("return t") == Self.request)
    }

    @Test func leavesTablesWritableWhenNotAskedForReadOnly() throws {
        let lua = try BridgeTestState()
        try lua.set("t", to: Self.request, readOnly: false)
        #expect(try lua.evaluate("t.name = 'away' table.insert(t.list, 40) return {t.name, #t.list}") == ["away", 4])
    }

    // MARK: - Freezing in place

    @Test(
        arguments: [
            ("rawequal(alias, t) and freeze(t) == t", true),
            ("is_readonly(alias)", true),
            ("t.own", 1),
            ("t[1] + t[2]", 3),
            ("#alias", 2),
            ("pcall(function() alias.own = 2 end)", false),
            ("getmetatable(t)", false),
            ("t(21)", 42),
            ("tostring(t)", "frozen"),
            ("t + 1", "added"),
            ("-t", "negated"),
            ("t .. 'x'", "concatenated"),
            ("t == setmetatable({}, getmetatable(other))", true),
            ("t.inherited", "from the class"),
            ("t.missing", .nil),
        ] as [(String, RuleValue)])
    func freezesInPlaceKeepingIdentityAndMetamethods(expression: String, expected: RuleValue) throws {
        let lua = try BridgeTestState()
        let setup = """
            local mt = {
              __index = { inherited = "from the class" },
              __call = function(self, x) return x * 2 end,
              __tostring = function() return "frozen" end,
              __add = function() return "added" end,
              __unm = function() return "negated" end,
              __concat = function() return "concatenated" end,
              __eq = function() return true end,
            }
            t = setmetatable({ own = 1, 1, 2 }, mt)
            other = setmetatable({}, mt)
            alias = t
            freeze(t)
            """
        #expect(lua.failure(of: setup) == nil)
        #expect(try lua.evaluate("return \(expression)") == expected)
    }

    @Test func callsAnOldIndexFunctionWithTheFrozenTableNotItsBacking() throws {
        let lua = try BridgeTestState()
        let source = """
            local seen
            local t = setmetatable({ own = 1 }, { __index = function(self, key) seen = self return key .. "!" end })
            freeze(t)
            return { t.own, t.other, rawequal(seen, t) }
            """
        #expect(try lua.evaluate(source) == [1, "other!", true])
    }

    @Test func freezesAFrozenTableAgainWithoutChangingIt() throws {
        let lua = try BridgeTestState()
        let source = """
            local t = setmetatable({ a = 1 }, { __index = { b = 2 } })
            freeze(t)
            freeze(t)
            freeze(t, true)
            return { t.a, t.b, is_readonly(t) }
            """
        #expect(try lua.evaluate(source) == [1, 2, true])
    }

    @Test(
        arguments: [
            ("pcall(function() t.child.x = 2 end)", false, true),
            ("pcall(function() t.child.grandchild.y = 2 end)", false, true),
            ("t.self == t and t.child.x == 1", true, true),
            ("is_readonly(t.child.grandchild)", true, false),
        ])
    func freezesDeeplyOnlyWhenAsked(expression: String, deep: Bool, shallow: Bool) throws {
        for (isDeep, expected) in [(true, deep), (false, shallow)] {
            let lua = try BridgeTestState()
            let setup = "t = { child = { x = 1, grandchild = { y = 1 } } } t.self = t freeze(t, \(isDeep))"
            #expect(lua.failure(of: setup) == nil)
            let expectedValue: RuleValue = .bool(expected)
            #expect(try lua.evaluate("return \(expression)") == expectedValue, "deep: \(isDeep)")
        }
    }

    @Test func dropsAFinalizerWhenFreezing() throws {
        let lua = try BridgeTestState()
        let source = """
            local ran = false
            do
              local t = setmetatable({}, { __gc = function() ran = true end })
              freeze(t)
            end
            collectgarbage()
            collectgarbage()
            return ran
            """
        #expect(try lua.evaluate(source) == false)
    }

    @Test func refusesToFreezeWhatIsNotATable() throws {
        let lua = try BridgeTestState()
        #expect(lua.failure(of: "freeze('text')") == "test:1: bad argument #1 to 'freeze' (table expected, got string)")
    }

    @Test func freezesFromTheHost() throws {
        let lua = try BridgeTestState()
        try lua.push(["a": [1, 2]])
        let height = lua.stackHeight
        try ReadOnlyTables.freeze(tableAt: -1, deep: true, in: lua.handle, chunkName: "host")
        #expect(lua.stackHeight == height)
        #expect(try lua.pop() == ["a": [1, 2]])
    }
}
