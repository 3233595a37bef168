import CLua
package import JunctionCore
package import JunctionLua

/// Runs the same Lua code — calls of `string.find/match/gmatch/gsub` whose results (or
/// error message) it renders as one string — in a sandboxed ``RuleEngine``, where the
/// functions are the sandbox's own, and in a plain `luaL_newstate` with Lua's own string
/// library, and gives both renderings, as bytes: the differential reference of the
/// `lua-pattern` fuzz target and of `PatternDifferentialTests`.
///
/// Both load the code under the same chunk name, so the positions in messages agree too.
/// Neither state is `Sendable`: one caller at a time.
package final class LuaPatternHarness {
    /// The chunk name of both states.
    package static let chunkName = "harness.lua"

    /// `run(function, s, p, a3, a4)`: `"ok: "` and the results, or `"error: "` and the
    /// message. A gsub replacement is named by `a3`: `"table"`, `"function"`, `"number"`,
    /// `"float"` and `"boolean"` stand for such a replacement; any other string is itself.
    package static let source = """
        local function show(...)
          local out = { tostring(select("#", ...)) }
          for i = 1, select("#", ...) do
            local v = select(i, ...)
            out[#out + 1] = (math.type(v) or type(v)) .. ":" .. tostring(v)
          end
          return table.concat(out, "|")
        end
        local function replacement(name)
          if name == "table" then
            return { a = "<A>", b = 7, ab = false, [1] = "<1>", [2] = 2.5, c = {}, [""] = "<empty>" }
          elseif name == "function" then
            return function(...)
              local first = ...
              if first == "b" then return nil end
              if first == "c" then return {} end
              if first == "a" then return select("#", ...) * 10 end
              if first == 3 then return false end
              return "<" .. table.concat({ ... }, ",") .. ">"
            end
          elseif name == "number" then return 42
          elseif name == "float" then return 1.5
          elseif name == "boolean" then return true
          end
          return name
        end
        function run(kind, s, p, a3, a4)
          local ok, result = pcall(function()
            if kind == "find" then return show(string.find(s, p, a3, a4)) end
            if kind == "match" then return show(string.match(s, p, a3)) end
            if kind == "gsub" then return show(string.gsub(s, p, replacement(a3), a4)) end
            local out, it = {}, string.gmatch(s, p, a3)
            for _ = 1, 100 do
              local found = table.pack(it())
              if found[1] == nil then break end
              out[#out + 1] = show(table.unpack(found, 1, found.n))
            end
            return table.concat(out, ";")
          end)
          return (ok and "ok: " or "error: ") .. tostring(result)
        end
        """

    /// Why a harness could not be made.
    package struct SetupError: Error, CustomStringConvertible {
        package let description: String
    }

    private let engine: RuleEngine
    private let reference: OpaquePointer

    /// Both states, the sandbox's under `limits`.
    /// - Throws: `LuaError` when the sandbox does not load the harness, ``SetupError``
    ///   when plain Lua does not.
    package init(limits: SandboxLimits) throws {
        engine = try RuleEngine(sources: [RuleSource(name: Self.chunkName, text: Self.source)], limits: limits)
        guard let state = luaL_newstate() else { throw SetupError(description: "luaL_newstate failed") }
        luaL_openlibs(state)
        let loaded = Self.source.withCString { text in
            jl_loadtext(state, text, Self.source.utf8.count, "=" + Self.chunkName)
        }
        guard loaded == LUA_OK, jl_pcall(state, 0, 0, 0) == LUA_OK else {
            lua_close(state)
            throw SetupError(description: "the harness does not load in plain Lua")
        }
        reference = state
    }

    deinit {
        lua_close(reference)
    }

    /// What the sandbox's functions give for `function(arguments...)`, or the engine's
    /// error (its budget included).
    package func sandboxed(_ function: String, _ arguments: [RuleValue]) -> Result<[UInt8], LuaError> {
        let value: RuleValue
        do throws(LuaError) {
            value = try engine.evaluate("run", arguments: [.string(function)] + arguments).value
        } catch {
            return .failure(error)
        }
        switch value {
        case .string(let text): return .success(Array(text.utf8))
        case .bytes(let bytes): return .success(bytes)
        default: return .success(Array("not a string: \(value)".utf8))
        }
    }

    /// What Lua's own functions give for `function(arguments...)`.
    package func original(_ function: String, _ arguments: [RuleValue]) -> [UInt8] {
        lua_settop(reference, 0)
        defer { lua_settop(reference, 0) }
        _ = lua_getglobal(reference, "run")
        _ = lua_pushstring(reference, function)
        for argument in arguments { push(argument) }
        var length = 0
        guard jl_pcall(reference, Int32(arguments.count + 1), 1, 0) == LUA_OK else {
            let text = lua_tolstring(reference, -1, &length).map { String(cString: $0) } ?? "(not a string)"
            return Array("the harness failed: \(text)".utf8)
        }
        guard let text = lua_tolstring(reference, -1, &length) else { return Array("not a string".utf8) }
        return Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(text), count: length))
    }

    private func push(_ value: RuleValue) {
        switch value {
        case .int(let number): lua_pushinteger(reference, number)
        case .double(let number): lua_pushnumber(reference, number)
        case .bool(let flag): lua_pushboolean(reference, flag ? 1 : 0)
        case .string(let text): pushBytes(Array(text.utf8))
        case .bytes(let bytes): pushBytes(bytes)
        default: lua_pushnil(reference)
        }
    }

    private func pushBytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress, !bytes.isEmpty {
                _ = lua_pushlstring(reference, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), bytes.count)
            } else {
                _ = lua_pushstring(reference, "")
            }
        }
    }

    /// The call as Lua source would write it, bytes outside printable ASCII escaped.
    package static func describe(_ function: String, _ arguments: [RuleValue]) -> String {
        let shown = arguments.map { argument -> String in
            guard case .bytes(let bytes) = argument else { return "\(argument)" }
            return "\""
                + bytes.map { byte in
                    (0x20..<0x7F).contains(byte) && byte != 0x22 && byte != 0x5C
                        ? String(UnicodeScalar(byte)) : "\\" + String(byte)
                }.joined() + "\""
        }
        return "string.\(function)(\(shown.joined(separator: ", ")))"
    }
}
