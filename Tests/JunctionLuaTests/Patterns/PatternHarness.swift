import CLua
import JunctionCore
import JunctionLua
import Testing

/// Runs the same Lua code — calls of `string.find/match/gmatch/gsub` whose results (or
/// error message) it renders as one string — in a sandbox, where the functions are the
/// sandbox's own, and in a plain `lua_State` with Lua's own string library, and gives both
/// renderings, as bytes.
///
/// Both load the code under the same chunk name, so the positions in messages agree too.
final class PatternHarness {
    static let chunkName = "harness.lua"

    /// `run(function, s, p, a3, a4)`: `"ok: "` and the results, or `"error: "` and the message.
    /// A gsub replacement is named by `a3` (see ``PatternCaseGenerator/replacement()``).
    static let source = """
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

    private let engine: RuleEngine
    private let reference: OpaquePointer

    init() throws {
        engine = try RuleEngine(
            sources: [RuleSource(name: Self.chunkName, text: Self.source)],
            limits: SandboxLimits(instructions: 500_000_000, decisionTime: .seconds(120)))
        reference = try #require(luaL_newstate())
        luaL_openlibs(reference)
        let loaded = Self.source.withCString { text in
            jl_loadtext(reference, text, Self.source.utf8.count, "=" + Self.chunkName)
        }
        try #require(loaded == LUA_OK)
        try #require(jl_pcall(reference, 0, 0, 0) == LUA_OK)
    }

    deinit {
        lua_close(reference)
    }

    /// What the sandbox's functions give for `function(arguments...)`.
    func sandboxed(_ function: String, _ arguments: [RuleValue]) throws -> [UInt8] {
        switch try engine.evaluate("run", arguments: [.string(function)] + arguments).value {
        case .string(let text): return Array(text.utf8)
        case .bytes(let bytes): return bytes
        case let other: return Array("not a string: \(other)".utf8)
        }
    }

    /// What Lua's own functions give for `function(arguments...)`.
    func original(_ function: String, _ arguments: [RuleValue]) -> [UInt8] {
        lua_settop(reference, 0)
        _ = lua_getglobal(reference, "run")
        _ = lua_pushstring(reference, function)
        for argument in arguments { push(argument) }
        guard jl_pcall(reference, Int32(arguments.count + 1), 1, 0) == LUA_OK else {
            return Array("the harness failed: \(String(cString: lua_tolstring(reference, -1, nil)))".utf8)
        }
        var length = 0
        let text = lua_tolstring(reference, -1, &length)
        return Array(UnsafeRawBufferPointer(start: text, count: length))
    }

    private func push(_ value: RuleValue) {
        switch value {
        case .int(let number): lua_pushinteger(reference, number)
        case .double(let number): lua_pushnumber(reference, number)
        case .bool(let flag): lua_pushboolean(reference, flag ? 1 : 0)
        case .string(let text): _ = lua_pushlstring(reference, text, text.utf8.count)
        case .bytes(let bytes):
            _ = bytes.withUnsafeBufferPointer {
                lua_pushlstring(
                    reference, UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), bytes.count)
            }
        default: lua_pushnil(reference)
        }
    }
}
