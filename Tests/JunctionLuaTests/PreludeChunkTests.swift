import CLua
import Foundation  // strlen
import Testing

@testable import JunctionLua

/// The prelude is loaded from a precompiled chunk without local-variable names: these
/// tests fail if it goes back to carrying them, or if dropping them costs rule authors
/// the position of an error.
@Suite struct PreludeChunkTests {
    /// The name debug information gives the first parameter of the function `expression`
    /// evaluates to in a sandbox, or `nil` when it has none.
    private static func firstParameterName(of expression: String) throws -> String? {
        let sandbox = try LuaState(limits: SandboxLimits()) { _ in }
        let handler = try sandbox.run(source: "return \(expression)", chunkName: "probe.lua", results: 1)
        defer { sandbox.reset(to: handler - 1) }
        lua_pushvalue(sandbox.handle, handler + 1)
        guard let name = lua_getlocal(sandbox.handle, nil, 1) else { return nil }
        return String(cString: name)
    }

    @Test func preludeFunctionsCarryNoLocalNames() throws {
        // The probe reads the names where they exist: a rule's own function keeps them.
        #expect(try Self.firstParameterName(of: "function(subject) end") == "subject")
        for helper in [
            "string.rep", "string.find", "table.insert", "pcall", "reject", "redirect", "interceptor", "load",
            "setmetatable",
        ] {
            #expect(try Self.firstParameterName(of: helper) == nil, "\(helper) carries local names")
        }
    }

    @Test func theChunksAreBinaryAndStatesRunThem() throws {
        let chunks = try PreludeChunk.chunks.get()
        #expect(chunks.count == SandboxPrelude.File.allCases.count)
        for chunk in chunks {
            #expect(chunk.starts(with: [0x1B, 0x4C, 0x75, 0x61]))  // "\eLua": a binary chunk
        }
        #expect(try PreludeChunk.compiled.get() == chunks[SandboxPrelude.File.prelude.rawValue])
        let sandbox = try LuaState(limits: SandboxLimits()) { _ in }
        #expect(try sandbox.evaluate(source: "return string.rep('ab', 2)", chunkName: "probe.lua") == ["abab"])
    }

    /// Dumps `source` with full debug information, strips it with
    /// ``PreludeChunk/withoutLocalNames(_:)``, loads the result, and returns the error
    /// message of calling the function the chunk returns with `1`.
    private static func messageOfStrippedChunk(_ source: String) throws -> String {
        let state = try #require(luaL_newstate())
        defer { lua_close(state) }
        let loaded = source.withCString { text in jl_loadtext(state, text, strlen(text), "=stripped") }
        #expect(loaded == LUA_OK)
        var buffer = DumpBuffer()
        defer { buffer.release() }
        _ = withUnsafeMutablePointer(to: &buffer) { lua_dump(state, DumpBuffer.writer, $0, 0) }
        let stripped = try PreludeChunk.withoutLocalNames(buffer.contents)
        #expect(stripped.count < buffer.count)
        jl_pop(state, 1)
        let status = stripped.withUnsafeBytes { bytes in
            jl_loadbinary(state, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), bytes.count, "=binary")
        }
        #expect(status == LUA_OK)
        #expect(jl_pcall(state, 0, 1, 0) == LUA_OK)
        lua_pushinteger(state, 1)
        #expect(jl_pcall(state, 1, 0, 0) == LUA_ERRRUN)
        return String(cString: lua_tolstring(state, -1, nil))
    }

    @Test func strippingKeepsLinesAndUpvalueNamesButDropsLocalNames() throws {
        let local = "local up = {}\nreturn function(a)\n  local b = a + 1\n  return b.x\nend"
        #expect(try Self.messageOfStrippedChunk(local) == "stripped:4: attempt to index a number value")
        let upvalue = "local up = 1\nreturn function(a)\n\n  return up.x\nend"
        #expect(
            try Self.messageOfStrippedChunk(upvalue) == "stripped:4: attempt to index a number value (upvalue 'up')")
    }

    // Each call is kept out of tail position: a tail call leaves no frame of the caller to name.
    @Test(arguments: [
        ("\nlocal v = reject(42)\nreturn v", 2, "reject(reason [, code]) takes the reason as a string"),
        (
            "\n\nlocal v = gate({})\nreturn v", 3,
            "gate(url [, { resume = true }]) takes the URL to open first, such as the login page"
        ),
        ("local v = redirect { from = 1, to = 'x' }\nreturn v", 1, "redirect: from must be a string, not a number"),
        (
            "interceptor { name = 'i', all = true,\n  run = 1 }", 1,
            "interceptor \"i\": run must be a function, not a number"
        ),
        (
            "\nlocal v = setmetatable({}, { __gc = print })\nreturn v", 2,
            "setmetatable: __gc finalizers are not allowed in rules"
        ),
        // Raised by Lua inside the prelude's own code, not by `error`.
        (
            "\nlocal v = table.concat(setmetatable({}, { __len = function() return 'x' end }))\nreturn v", 2,
            "bad 'for' limit (number expected, got string)"
        ),
        // Raised by a C original the prelude calls.
        ("\nlocal v = rawset()\nreturn v", 2, "bad argument #1 to 'rawset' (table expected, got nil)"),
        ("local v = next(nil)\nreturn v", 1, "bad argument #1 to 'next' (table expected, got nil)"),
    ])
    func errorsInPreludeHelpersNameTheRulesLine(source: String, line: Int, message: String) throws {
        let sandbox = try LuaState(limits: SandboxLimits()) { _ in }
        let error = #expect(throws: LuaError.self) {
            try sandbox.evaluate(source: source, chunkName: "rules/helpers.lua")
        }
        #expect(error?.code == .runtime)
        #expect(error?.description == "rules/helpers.lua:\(line): \(message)")
    }
}
