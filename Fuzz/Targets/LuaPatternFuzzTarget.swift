import CLua
import Foundation
import JunctionCore
import JunctionLua

extension FuzzTarget {
    /// The sandbox's own `string.find/match/gmatch/gsub` against Lua 5.4's, differentially,
    /// as Tests/JunctionLuaTests/Patterns/PatternHarness.swift runs them: the same Lua
    /// `run(kind, s, p, a3, a4)`, which renders the results (or the error message) as one
    /// string, in a sandboxed ``RuleEngine`` and in a plain `luaL_newstate` with Lua's own
    /// string library, both made once.
    ///
    /// Read: a byte choosing the function, two bytes choosing the third and fourth
    /// arguments from the harness's menus (`init` as nil, a small integer, ±100, the
    /// extreme integers, `"2"`, `2.0`, `1.5`, `"x"`; `plain`; a gsub replacement — one of
    /// the harness's strings or names, or the third field; gsub's `n`), a payload byte for
    /// the small integers, then fields: the subject (at most 64 bytes), the pattern (at most
    /// 32) and a replacement (at most 16), byte 0x01 standing for NUL in each.
    ///
    /// Asserted: both give the same bytes. The harness gives its sandbox budgets nothing
    /// reaches; this one runs under 500,000 instructions, so a call the sandbox stops for its
    /// budget (or its time) is not compared — and not run in plain Lua, whose matcher can
    /// take exponential time on such a pattern; what completes in the sandbox is bounded in
    /// plain Lua too (the sandbox charges at least the matcher's steps, PatternStepBoundTests).
    /// Any other error from the sandbox fails the property.
    static let luaPattern = FuzzTarget(
        name: "lua-pattern",
        summary: "Lua patterns: the sandbox's find/match/gmatch/gsub give the results and errors Lua's own give"
    ) { bytes throws(FuzzFailure) in
        var input = FuzzInput(bytes)
        let kind = ["find", "match", "gmatch", "gsub"][input.choice(4)]
        let third = input.byte()
        let fourth = input.byte()
        let payload = input.byte()
        let subject = LuaPatternFuzzing.nulMapped(input.field().prefix(64))
        let pattern = LuaPatternFuzzing.nulMapped(input.field().prefix(32))
        let replacement = LuaPatternFuzzing.nulMapped(input.field().prefix(16))
        var arguments: [RuleValue] = [.bytes(subject), .bytes(pattern)]
        switch kind {
        case "find":
            arguments += [
                LuaPatternFuzzing.start(third, payload),
                LuaPatternFuzzing.plain[Int(fourth) % LuaPatternFuzzing.plain.count],
            ]
        case "gsub":
            arguments += [
                LuaPatternFuzzing.replacement(third, replacement), LuaPatternFuzzing.limit(fourth, payload),
            ]
        default:
            arguments += [LuaPatternFuzzing.start(third, payload)]
        }
        try LuaPatternFuzzing.shared.compare(kind, arguments)
    }
}

/// The two Lua states of the `lua-pattern` target, made once. Neither a `lua_State` nor a
/// ``RuleEngine`` is `Sendable`; libFuzzer calls a target from one thread, and the lock
/// keeps the replaying tests, which may run targets side by side, to one caller at a time.
private final class LuaPatternFuzzing: @unchecked Sendable {
    static let shared = LuaPatternFuzzing()

    /// The harness's chunk name, the same in both states so positions in messages agree.
    static let chunkName = "harness.lua"

    /// PatternHarness's Lua, unchanged: `run(function, s, p, a3, a4)` renders `"ok: "` and
    /// the results, or `"error: "` and the message; a gsub replacement is named by `a3`.
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

    /// The sandbox's budget for one call: ample for any pattern on 64 bytes that does not
    /// backtrack exponentially. The time backstop is set far off, so only the count stops it.
    static let limits = SandboxLimits(instructions: 500_000, decisionTime: .seconds(60))

    // MARK: - Arguments, from the harness's generator's menus

    /// `init`: nil, a small integer from the payload, ±100, 0, the extreme integers, a numeric string, floats, text.
    static func start(_ choice: UInt8, _ payload: UInt8) -> RuleValue {
        let small = RuleValue.int(Int64(Int8(bitPattern: payload)))
        let menu: [RuleValue] = [
            .nil, .nil, .nil, small, small, small, .int(100), .int(-100), .int(0), .int(.max), .int(.min),
            .string("2"), .double(2), .double(1.5), .string("x"),
        ]
        return menu[Int(choice) % menu.count]
    }

    /// `plain` for find.
    static let plain: [RuleValue] = [.nil, .nil, .bool(true), .bool(false), .int(1)]

    /// A gsub replacement as the harness reads it: a string, the name of a table, a
    /// function, a number or a boolean — or the fuzzed `text`.
    static func replacement(_ choice: UInt8, _ text: [UInt8]) -> RuleValue {
        let menu = [
            "x", "", "%0", "%1", "%2", "<%1|%2>", "%%", "%", "a%", "%a", "%9", "[%0]",
            "table", "function", "number", "float", "boolean",
        ]
        let index = Int(choice) % (menu.count + 3)
        return index < menu.count ? .string(menu[index]) : .bytes(text)
    }

    /// `n` for gsub.
    static func limit(_ choice: UInt8, _ payload: UInt8) -> RuleValue {
        let menu: [RuleValue] = [
            .nil, .nil, .nil, .int(0), .int(1), .int(2), .int(-1), .string("2"), .double(1.5),
            .int(Int64(Int8(bitPattern: payload))), .int(.max), .int(.min),
        ]
        return menu[Int(choice) % menu.count]
    }

    /// `bytes` with 0x01 read as NUL, which cannot be in a field.
    static func nulMapped(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        bytes.map { $0 == 0x01 ? 0x00 : $0 }
    }

    // MARK: - The states

    private let lock = NSLock()
    private let engine: RuleEngine
    private let reference: OpaquePointer

    private init() {
        engine = try! RuleEngine(
            sources: [RuleSource(name: Self.chunkName, text: Self.source)], limits: Self.limits)
        guard let state = luaL_newstate() else { fatalError("lua-pattern: luaL_newstate failed") }
        luaL_openlibs(state)
        let loaded = Self.source.withCString { text in
            jl_loadtext(state, text, Self.source.utf8.count, "=" + Self.chunkName)
        }
        guard loaded == LUA_OK, jl_pcall(state, 0, 0, 0) == LUA_OK else {
            fatalError("lua-pattern: the harness does not load in plain Lua")
        }
        reference = state
    }

    deinit {
        lua_close(reference)
    }

    /// Runs `function(arguments...)` in both and compares the renderings.
    func compare(_ function: String, _ arguments: [RuleValue]) throws(FuzzFailure) {
        lock.lock()
        defer { lock.unlock() }
        let mine: [UInt8]
        switch sandboxed(function, arguments) {
        case .success(let rendered):
            mine = rendered
        case .failure(let error) where error.code == .instructionBudget || error.code.endsDecision:
            return  // Not compared: the sandbox's budget, which plain Lua does not have.
        case .failure(let error):
            throw FuzzFailure("the harness runs in the sandbox", "\(error) for \(Self.describe(function, arguments))")
        }
        let lua = original(function, arguments)
        try require(
            mine == lua, "the sandbox's pattern functions give what Lua's do",
            """
            \(Self.describe(function, arguments))
              sandbox: \(String(decoding: mine, as: UTF8.self).debugDescription)
              Lua:     \(String(decoding: lua, as: UTF8.self).debugDescription)
            """)
    }

    /// What the sandbox's functions give, or the engine's error.
    private func sandboxed(_ function: String, _ arguments: [RuleValue]) -> Result<[UInt8], LuaError> {
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

    /// What Lua's own functions give.
    private func original(_ function: String, _ arguments: [RuleValue]) -> [UInt8] {
        lua_settop(reference, 0)
        _ = lua_getglobal(reference, "run")
        _ = lua_pushstring(reference, function)
        for argument in arguments { push(argument) }
        guard jl_pcall(reference, Int32(arguments.count + 1), 1, 0) == LUA_OK else {
            var length = 0
            let message = lua_tolstring(reference, -1, &length)
            let text = message.map { String(cString: $0) } ?? "(not a string)"
            lua_settop(reference, 0)
            return Array("the harness failed: \(text)".utf8)
        }
        var length = 0
        guard let text = lua_tolstring(reference, -1, &length) else {
            lua_settop(reference, 0)
            return Array("not a string".utf8)
        }
        let rendered = Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(text), count: length))
        lua_settop(reference, 0)
        return rendered
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
    static func describe(_ function: String, _ arguments: [RuleValue]) -> String {
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
