import CLua
import Testing

import JunctionCore
@testable import JunctionLua

/// A plain Lua state for testing the value bridge on its own, apart from the
/// sandbox: every standard library (`coroutine` included), a capped heap, and
/// test helpers as globals — `freeze` (``ReadOnlyTables/freezeInPlace``),
/// `is_readonly` and `newuserdata()`. Chunks run as `test`.
final class BridgeTestState {
    static let chunkName = "test"

    let handle: OpaquePointer
    private let budget: UnsafeMutablePointer<MemoryBudget>

    init(memoryLimit: Int = 8 << 20) throws {
        budget = .allocate(capacity: 1)
        budget.initialize(to: MemoryBudget(limit: memoryLimit))
        handle = try #require(lua_newstate(MemoryBudget.allocator, budget))
        jl_pushcfunction(handle, Self.setUp)
        #expect(jl_pcall(handle, 0, 0, 0) == LUA_OK)
    }

    deinit {
        lua_close(handle)
        budget.deinitialize(count: 1)
        budget.deallocate()
    }

    /// The stack's height, to check that a call leaves it as it was.
    var stackHeight: Int32 { lua_gettop(handle) }

    /// Pushes `value` with ``RuleValueWriter`` and pops it into the global `name`.
    func set(_ name: String, to value: RuleValue, readOnly: Bool = false, limits: RuleValueLimits = .default)
        throws(LuaError)
    {
        try push(value, readOnly: readOnly, limits: limits)
        name.withCString { name in
            jl_pushcfunction(handle, Self.setGlobal)
            jl_insert(handle, -2)
            lua_pushlightuserdata(handle, UnsafeMutableRawPointer(mutating: name))
            #expect(jl_pcall(handle, 2, 0, 0) == LUA_OK)
        }
    }

    /// Pushes `value` with ``RuleValueWriter`` as `argument`.
    func push(_ value: RuleValue, readOnly: Bool = false, limits: RuleValueLimits = .default) throws(LuaError) {
        try RuleValueWriter.push(value, readOnly: readOnly, into: handle, limits: limits, chunkName: Self.chunkName)
    }

    /// Reads the value on the top of the stack as `result` and pops it.
    func pop(limits: RuleValueLimits = .default) throws(LuaError) -> RuleValue {
        defer { jl_pop(handle, 1) }
        var reader = RuleValueReader(state: handle, chunkName: Self.chunkName, limits: limits)
        return try reader.read(at: -1)
    }

    /// Runs `source` and converts its first result (`nil` when it returns nothing).
    func evaluate(_ source: String, limits: RuleValueLimits = .default) throws(LuaError) -> RuleValue {
        let base = lua_gettop(handle)
        defer { lua_settop(handle, base) }
        if let message = run(source, results: 1) {
            throw LuaError(code: .runtime, chunkName: Self.chunkName, line: nil, message: message)
        }
        var reader = RuleValueReader(state: handle, chunkName: Self.chunkName, limits: limits)
        return try reader.read(at: -1)
    }

    /// The message of the error `source` raises, or `nil` when it runs through.
    func failure(of source: String) -> String? {
        let base = lua_gettop(handle)
        defer { lua_settop(handle, base) }
        return run(source, results: 0)
    }

    /// Loads and calls `source`; on failure returns the error message (a string).
    private func run(_ source: String, results: Int32) -> String? {
        var source = source
        var status = source.withUTF8 { text in
            text.withMemoryRebound(to: CChar.self) { text in
                jl_loadtext(handle, text.baseAddress, text.count, "=test")
            }
        }
        if status == LUA_OK {
            status = jl_pcall(handle, 0, results, 0)
        }
        guard status != LUA_OK else { return nil }
        guard lua_type(handle, -1) == LUA_TSTRING else { return "(a \(String(cString: jl_typename(handle, -1))))" }
        return String(cString: lua_tolstring(handle, -1, nil))
    }

    private static let setUp: lua_CFunction = { state in
        luaL_openlibs(state)
        jl_pushcfunction(state, ReadOnlyTables.freezeInPlace)
        lua_setglobal(state, "freeze")
        jl_pushcfunction(state, ReadOnlyTables.isReadOnly)
        lua_setglobal(state, "is_readonly")
        jl_pushcfunction(state, BridgeTestState.newUserdata)
        lua_setglobal(state, "newuserdata")
        return 0
    }

    /// Arguments: the value, the global's name (light userdata, a C string).
    private static let setGlobal: lua_CFunction = { state in
        let name = lua_touserdata(state, 2).unsafelyUnwrapped.assumingMemoryBound(to: CChar.self)
        lua_settop(state, 1)
        lua_setglobal(state, name)
        return 0
    }

    private static let newUserdata: lua_CFunction = { state in
        _ = lua_newuserdatauv(state, 8, 0)
        return 1
    }
}
